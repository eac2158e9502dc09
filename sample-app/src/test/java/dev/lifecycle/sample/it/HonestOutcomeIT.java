package dev.lifecycle.sample.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Honest outcomes (finding 6 of the hardening issue), on a real process: a final backup
 * that fails on both the target and the fallback is reported by the pipeline's shutdown
 * handler by throwing, so the shutdown is not clean and the exit code is 1. Nothing
 * acknowledged is lost meanwhile: the log holds every event.
 */
class HonestOutcomeIT {

	@TempDir
	Path work;

	@Test
	void aFinalBackupThatFailsOnBothTargetsMakesTheShutdownUncleanWithExitCode1() throws Exception {
		Path data = this.work.resolve("data");
		// Regular files where the directories should be: neither can hold a backup (root
		// ignores permissions).
		Path target = Files.writeString(this.work.resolve("target-is-a-file"), "x");
		Path fallback = Files.writeString(this.work.resolve("fallback-is-a-file"), "x");
		try (ChildJvm sample = SampleApp
			.launch(this.work.resolve("run"), data, "--sample.backup.dir=" + target,
					"--sample.backup.fallback-dir=" + fallback)
			.awaitReady()) {
			for (int i = 1; i <= 5; i++) {
				assertThat(sample.post("/events", "{\"id\":\"e" + i + "\",\"key\":\"k\",\"value\":1}").statusCode())
					.isEqualTo(202);
			}
			sample.sigterm();
			int exit = sample.awaitExit(Duration.ofSeconds(60));
			String log = sample.log();
			assertThat(log).contains("Lifecycle: shutdown handler 'pipeline-checkpoint-and-backup' failed")
				.contains("No final backup: The backup failed")
				.contains(fallback.toString());
			// The engine counts a throwing handler as not clean: exit 1, and the report
			// names it.
			assertThat(log).contains("shutdown complete (clean=false, exitCode=1");
			assertThat(exit).as("exit code").isEqualTo(1);
		}
		assertThat(Verify.rowsIn(data.resolve("events.db"))).isEqualTo(5);
	}

}
