package dev.lifecycle.sample.it;

import java.nio.file.Path;
import java.time.Duration;

import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With {@code lifecycle.enabled=false} the sample still ingests, aggregates and backs up,
 * the way plain Spring Boot runs it: the anchor the benchmarks compare Lifecycle against
 * must be a working service.
 */
class PlainSpringModeIT {

	@TempDir
	Path work;

	@Test
	void withoutLifecycleTheSampleIngestsCountsAndBacksUpOnSigterm() throws Exception {
		Path data = this.work.resolve("data");
		try (ChildJvm sample = SampleApp
			.launch(this.work, data, "--lifecycle.enabled=false", "--server.shutdown=graceful")
			.awaitReady()) {
			for (int i = 0; i < 10; i++) {
				assertThat(sample.post("/events", "{\"id\":\"p" + i + "\",\"key\":\"plain\",\"value\":2}").statusCode())
					.isEqualTo(202);
			}
			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(sample.get("/counts/plain").body()).contains("\"sum\":20")
					.contains("\"count\":10"));
			assertThat(sample.status("/actuator/health/lifecycle")).as("no Lifecycle health contributor")
				.isEqualTo(404);
			sample.sigterm();
			// No signal trap: the JVM's own SIGTERM exit code, after Spring's shutdown
			// hook closed the context.
			assertThat(sample.awaitExit(Duration.ofSeconds(30))).isEqualTo(143);
			assertThat(sample.log())
				.contains("Shutdown handler: the pipeline is STOPPED with a final checkpoint at offset 10")
				.contains("Backup: wrote");
		}
		assertThat(Verify.checkpointOf(data.resolve("events.db")).offset()).isEqualTo(10);
	}

	@Test
	void thePreStopSleepKeepsServingWithReadinessDownThenStopsOnceEvenWithTheActuatorOnItsOwnPort() throws Exception {
		try (ChildJvm sample = SampleApp
			.launch(this.work, this.work.resolve("data"), "--lifecycle.enabled=false", "--server.shutdown=graceful",
					"--sample.plain.pre-stop-sleep=3s", "--management.server.port=0")
			.awaitReady()) {
			long sigterm = System.nanoTime();
			sample.sigterm();
			await("readiness refusing traffic during the sleep").atMost(Duration.ofSeconds(2))
				.until(() -> sample.managementStatus("/actuator/health/readiness") == 503);
			assertThat(sample.post("/events", "{\"id\":\"s1\",\"key\":\"sleep\",\"value\":1}").statusCode())
				.as("events still accepted during the sleep")
				.isEqualTo(202);
			assertThat(sample.awaitExit(Duration.ofSeconds(30))).isEqualTo(143);
			assertThat(Duration.ofNanos(System.nanoTime() - sigterm)).as("SIGTERM to exit, one 3 s sleep")
				.isBetween(Duration.ofSeconds(3), Duration.ofSeconds(20));
			assertThat(sample.log().split("Pre-stop sleep: serving", -1))
				.as("the sleep runs once; log:%n%s", sample.log())
				.hasSize(2);
		}
	}

}
