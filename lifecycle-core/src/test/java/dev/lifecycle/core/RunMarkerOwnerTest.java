package dev.lifecycle.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import dev.lifecycle.core.record.ReportFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run marker belongs to one process: a marker whose process still runs is another
 * instance's, never a crash, while a marker whose pid now belongs to a later process is
 * the previous run's.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class RunMarkerOwnerTest {

	@TempDir
	Path directory;

	private Process other;

	@BeforeEach
	void startAnotherProcess() throws Exception {
		this.other = new ProcessBuilder("sleep", "120").start();
	}

	@AfterEach
	void stopIt() {
		this.other.destroyForcibly();
	}

	private Path marker() {
		return this.directory.resolve("lifecycle-orders.running");
	}

	@Test
	void aMarkerOfAProcessThatStillRunsIsNeitherReportedAsACrashNorTakenOver() throws Exception {
		String owned = "pid=" + this.other.pid() + " started=" + Instant.now().plusSeconds(2);
		Files.writeString(marker(), owned + "\n");
		LogCapture logs = LogCapture.start();
		LifecycleManager second;
		try {
			second = LifecycleManager.builder("orders").runMarker(marker()).build();
			second.start();
		}
		finally {
			logs.stop();
		}

		assertThat(second.previousRun()).isEmpty();
		assertThat(logs.messages()).noneSatisfy((line) -> assertThat(line).contains("ended without a shutdown"))
			.anySatisfy((line) -> assertThat(line).contains("belongs to a process that is still running")
				.contains("lifecycle.run-marker.path"));
		second.triggerShutdown(ShutdownReason.SIGNAL, "test");
		second.awaitTermination();
		assertThat(marker()).hasContent(owned + "\n");
		assertThat(new ReportFiles(marker()).list()).isEmpty();
	}

	@Test
	void aMarkerWhosePidNowBelongsToALaterProcessIsThePreviousRunsUncleanEnd() throws Exception {
		Files.writeString(marker(), "pid=" + this.other.pid() + " started=2020-01-01T00:00:00Z\n");

		LifecycleManager next = LifecycleManager.builder("orders").runMarker(marker()).build();

		assertThat(next.previousRun()).hasValueSatisfying((previous) -> {
			assertThat(previous.unclean()).isTrue();
			assertThat(previous.summary()).endsWith("ended without a shutdown: SIGKILL, OOM kill or crash");
		});
		next.triggerShutdown(ShutdownReason.SIGNAL, "test");
		next.awaitTermination();
	}

}
