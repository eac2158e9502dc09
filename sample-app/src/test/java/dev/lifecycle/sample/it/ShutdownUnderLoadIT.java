package dev.lifecycle.sample.it;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.sample.store.Checkpoint;
import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's invariant, tested by stopping and killing real processes under concurrent
 * load: every acknowledged event is counted exactly once after a restart.
 */
class ShutdownUnderLoadIT {

	@TempDir
	Path work;

	@Test
	void sigtermUnderLoadExitsZeroRefusesReadinessWhileAnsweringAndLosesNothing() throws Exception {
		Path data = this.work.resolve("data");
		Map<String, LoadGenerator.Ack> acked;
		try (ChildJvm sample = SampleApp
			.launch(this.work.resolve("first"), data, "--lifecycle.drain-delay=1s",
					"--sample.pipeline.checkpoint-every=200", "--sample.pipeline.checkpoint-interval=300ms")
			.awaitReady(); LoadGenerator load = new LoadGenerator(sample.uri("/events"), "term").start(8)) {
			await().atMost(Duration.ofSeconds(30)).until(() -> load.ackedCount() >= 300);
			ReadinessWatcher readiness = new ReadinessWatcher(sample).start();
			sample.sigterm();
			int exit = sample.awaitExit(Duration.ofSeconds(60));
			load.stop();
			readiness.stop();
			acked = load.acked();
			System.out.println("SIGTERM under load: " + load.summary() + ", readiness 503 seen "
					+ readiness.notReady.get() + " time(s)");
			assertThat(exit).as("exit code; log:\n%s", sample.log()).isZero();
			assertThat(readiness.notReady.get()).as("readiness answered 503 while the process still answered")
				.isPositive();
			assertThat(load.violations()).isEmpty();
			assertThat(sample.log()).contains("reason=signal")
				.contains("Shutdown handler: the pipeline is STOPPED with a final checkpoint")
				.contains("Backup: wrote");
		}

		Checkpoint finalCheckpoint = Verify.checkpointOf(data.resolve("events.db"));
		Path backup = Verify.latestBackup(data.resolve("backups")).orElseThrow();
		Checkpoint backedUp = Verify.checkpointOf(backup);
		assertThat(finalCheckpoint.offset()).isPositive();
		assertThat(backedUp.offset()).as("backup checkpoint offset").isEqualTo(finalCheckpoint.offset());
		assertThat(backedUp.aggregates()).as("backup aggregates").isEqualTo(finalCheckpoint.aggregates());

		try (ChildJvm restarted = SampleApp.launch(this.work.resolve("second"), data).awaitReady()) {
			Verify.everyAcknowledgedEventCountedExactlyOnce(restarted, acked, "term-");
			restarted.sigterm();
			assertThat(restarted.awaitExit(Duration.ofSeconds(60))).isZero();
		}
	}

	@Test
	void sigkillUnderLoadLosesNothingAfterRestart() throws Exception {
		Path data = this.work.resolve("data");
		Map<String, LoadGenerator.Ack> acked;
		try (ChildJvm sample = SampleApp
			.launch(this.work.resolve("first"), data, "--sample.pipeline.checkpoint-every=200",
					"--sample.pipeline.checkpoint-interval=300ms")
			.awaitReady(); LoadGenerator load = new LoadGenerator(sample.uri("/events"), "kill").start(8)) {
			await().atMost(Duration.ofSeconds(30)).until(() -> load.ackedCount() >= 300);
			Thread.sleep(ThreadLocalRandom.current().nextInt(300));
			sample.sigkill();
			assertThat(sample.awaitExit(Duration.ofSeconds(10))).isEqualTo(137);
			load.stop();
			acked = load.acked();
			System.out.println("SIGKILL under load: " + load.summary());
			assertThat(load.violations()).isEmpty();
		}
		try (ChildJvm restarted = SampleApp.launch(this.work.resolve("second"), data).awaitReady()) {
			assertThat(restarted.log()).containsPattern("Pipeline: recovered from checkpoint at offset \\d+");
			Verify.everyAcknowledgedEventCountedExactlyOnce(restarted, acked, "kill-");
			restarted.sigterm();
			assertThat(restarted.awaitExit(Duration.ofSeconds(60))).isZero();
		}
	}

	/**
	 * Polls readiness every 25 ms and counts the 503 answers (a 503 is an answer: the
	 * process is up).
	 */
	static final class ReadinessWatcher {

		final AtomicInteger notReady = new AtomicInteger();

		private final AtomicBoolean stopped = new AtomicBoolean();

		private final Thread thread;

		ReadinessWatcher(ChildJvm sample) {
			this.thread = new Thread(() -> {
				while (!this.stopped.get()) {
					if (sample.status("/actuator/health/readiness") == 503) {
						this.notReady.incrementAndGet();
					}
					try {
						Thread.sleep(25);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			}, "readiness-watcher");
			this.thread.setDaemon(true);
		}

		ReadinessWatcher start() {
			this.thread.start();
			return this;
		}

		void stop() throws InterruptedException {
			this.stopped.set(true);
			this.thread.join(5000);
		}

	}

}
