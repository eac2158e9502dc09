package dev.lifecycle.sample.it;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The two exits that are not clean: a second signal (128) and the global ceiling (129).
 */
class ForcedExitIT {

	@TempDir
	Path work;

	@Test
	void secondSigtermDuringASlowDrainExitsWith128AtOnce() throws Exception {
		try (ChildJvm sample = SampleApp
			.launch(this.work, this.work.resolve("data"), "--lifecycle.drain-delay=30s",
					"--lifecycle.global-shutdown-timeout=60s")
			.awaitReady()) {
			sample.sigterm();
			await().atMost(Duration.ofSeconds(5))
				.pollInterval(Duration.ofMillis(25))
				.until(() -> sample.status("/actuator/health/readiness") == 503);
			long start = System.nanoTime();
			sample.sigterm();
			int exit = sample.awaitExit(Duration.ofSeconds(15));
			long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			System.out.println("second SIGTERM -> exit " + exit + " after " + millis + " ms");
			assertThat(exit).as("exit code; log:\n%s", sample.log()).isEqualTo(128);
			assertThat(millis).as("time from the second SIGTERM to exit").isLessThan(3000);
		}
	}

	@Test
	void hungPipelineMakesTheCeilingFireWith129AndTheLogNamesIt() throws Exception {
		Duration ceiling = Duration.ofSeconds(6);
		try (ChildJvm sample = SampleApp
			.launch(this.work, this.work.resolve("data"), "--sample.test.hang-pipeline-on-stop=true",
					"--sample.pipeline.stop-timeout=1s",
					"--lifecycle.global-shutdown-timeout=" + ceiling.toSeconds() + "s")
			.awaitReady()) {
			for (int i = 0; i < 20; i++) {
				assertThat(sample.post("/events", "{\"id\":\"h" + i + "\",\"key\":\"h\",\"value\":1}").statusCode())
					.isEqualTo(202);
			}
			long start = System.nanoTime();
			sample.sigterm();
			// While the pipeline hangs, ingestion has drained: new events are refused
			// with Retry-After.
			HttpResponse<String> refused = null;
			while (sample.isAlive() && refused == null) {
				try {
					HttpResponse<String> response = sample.post("/events",
							"{\"id\":\"late\",\"key\":\"h\",\"value\":1}");
					if (response.statusCode() == 503) {
						refused = response;
					}
				}
				catch (java.io.IOException ex) {
					break;
				}
				Thread.sleep(50);
			}
			int exit = sample.awaitExit(ceiling.plusSeconds(20));
			long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			System.out.println("hung pipeline -> exit " + exit + " after " + millis + " ms");
			assertThat(exit).as("exit code; log:\n%s", sample.log()).isEqualTo(129);
			assertThat(millis).isGreaterThanOrEqualTo(ceiling.toMillis() - 500).isLessThan(ceiling.toMillis() + 10_000);
			assertThat(sample.log()).contains("did not reach STOPPED or FAILED within PT1S")
				.contains("component 'pipeline'")
				.contains("Backup: wrote");
			assertThat(refused).as("a 503 while the pipeline hung").isNotNull();
			assertThat(refused.headers().firstValue("Retry-After")).contains("5");
			assertThat(refused.body()).contains("\"reason\"");
		}
	}

}
