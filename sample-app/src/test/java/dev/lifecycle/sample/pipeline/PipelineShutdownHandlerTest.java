package dev.lifecycle.sample.pipeline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.lifecycle.sample.SampleProperties;
import dev.lifecycle.sample.backup.BackupService;
import dev.lifecycle.sample.backup.BackupTarget;
import dev.lifecycle.sample.store.EventStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The handler reports a missing final checkpoint or backup by throwing (so the engine's
 * report is not clean and the exit code 1), and still takes the backup when only the
 * checkpoint is missing.
 */
class PipelineShutdownHandlerTest {

	private static final SampleProperties.Pipeline SETTINGS = new SampleProperties.Pipeline(50, 100,
			Duration.ofMillis(300), Duration.ofMillis(20), Duration.ofSeconds(10));

	@TempDir
	Path dir;

	private EventStore store;

	@BeforeEach
	void open() throws Exception {
		this.store = new EventStore(this.dir.resolve("events.db"), "NORMAL", Duration.ofSeconds(5));
		this.store.append("a", "k", 1);
	}

	@AfterEach
	void close() {
		this.store.close();
	}

	private Pipeline running(boolean hangOnStop) throws Exception {
		Pipeline pipeline = new Pipeline(this.store, SETTINGS, hangOnStop);
		Thread thread = new Thread(() -> {
			try {
				pipeline.runUnmanaged();
			}
			catch (Exception ex) {
				// the state says FAILED
			}
		}, "pipeline-under-test");
		thread.setDaemon(true);
		thread.start();
		assertThat(pipeline.awaitState(Duration.ofSeconds(10), PipelineState.RUNNING)).isPresent();
		return pipeline;
	}

	private BackupService backups(Path target, Path fallback) {
		return new BackupService(this.store, new BackupTarget(target, fallback, Duration.ofSeconds(1)), 5);
	}

	@Test
	void stopsThePipelineWithAFinalCheckpointThenBacksUp() throws Exception {
		Pipeline pipeline = running(false);
		new PipelineShutdownHandler(pipeline, backups(this.dir.resolve("target"), this.dir.resolve("local")),
				Duration.ofSeconds(10))
			.stopPipelineAndBackUp();
		assertThat(pipeline.state()).isEqualTo(PipelineState.STOPPED);
		assertThat(pipeline.checkpointOffset()).isEqualTo(1);
		try (var files = Files.list(this.dir.resolve("target"))) {
			assertThat(files.filter((p) -> p.toString().endsWith(".db"))).hasSize(1);
		}
	}

	@Test
	void aBackupThatFailsOnTheTargetAndTheFallbackIsReportedByThrowing() throws Exception {
		Path target = Files.writeString(this.dir.resolve("target-is-a-file"), "x");
		Path fallback = Files.writeString(this.dir.resolve("fallback-is-a-file"), "x");
		Pipeline pipeline = running(false);
		assertThatIllegalStateException()
			.isThrownBy(() -> new PipelineShutdownHandler(pipeline, backups(target, fallback), Duration.ofSeconds(10))
				.stopPipelineAndBackUp())
			.withMessageContaining("No final backup")
			.withMessageContaining(fallback.toString());
		assertThat(pipeline.state()).isEqualTo(PipelineState.STOPPED);
	}

	@Test
	void aPipelineThatDoesNotStopInTimeIsReportedByThrowingAfterTheBackupIsTaken() throws Exception {
		Pipeline pipeline = running(true);
		assertThatIllegalStateException()
			.isThrownBy(() -> new PipelineShutdownHandler(pipeline,
					backups(this.dir.resolve("target"), this.dir.resolve("local")), Duration.ofMillis(500))
				.stopPipelineAndBackUp())
			.withMessageContaining("No final checkpoint: the pipeline did not stop within")
			.withMessageContaining("the backup " + this.dir.resolve("target"));
		try (var files = Files.list(this.dir.resolve("target"))) {
			assertThat(files.filter((p) -> p.toString().endsWith(".db"))).hasSize(1);
		}
	}

}
