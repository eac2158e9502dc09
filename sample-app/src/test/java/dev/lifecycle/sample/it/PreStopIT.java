package dev.lifecycle.sample.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Kubernetes' preStop hook touches the file; the ordinary SIGTERM follows. */
class PreStopIT {

	@TempDir
	Path work;

	@Test
	void preStopFileTurnsReadinessDownWithinASecondAndTheFollowingSigtermExitsCleanly() throws Exception {
		try (ChildJvm sample = SampleApp.launch(this.work, this.work.resolve("data"), "--lifecycle.drain-delay=3s")
			.awaitReady()) {
			Files.createFile(SampleApp.preStopFile(sample));
			long start = System.nanoTime();
			await().atMost(Duration.ofSeconds(1))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> sample.status("/actuator/health/readiness") == 503);
			System.out
				.println("pre-stop file -> readiness 503 after " + (System.nanoTime() - start) / 1_000_000 + " ms");
			// During the drain delay the service still answers and still accepts events.
			assertThat(sample.post("/events", "{\"id\":\"p1\",\"key\":\"p\",\"value\":1}").statusCode()).isEqualTo(202);
			sample.sigterm();
			int exit = sample.awaitExit(Duration.ofSeconds(30));
			assertThat(exit).as("exit code; log:\n%s", sample.log()).isZero();
			assertThat(sample.log()).contains("reason=prestop");
		}
	}

}
