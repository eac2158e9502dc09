package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

/**
 * The drain delay stays the upper bound; with a quiet period it ends once traffic has
 * stopped arriving, never before its minimum.
 */
class AdaptiveDrainTest {

	private static final Duration DRAIN_DELAY = Duration.ofSeconds(20);

	private static Duration drainStep(ShutdownReport report) {
		return report.steps()
			.stream()
			.filter((step) -> step.name().equals("drain delay"))
			.findFirst()
			.orElseThrow()
			.duration();
	}

	@Test
	void theDrainEndsOnceTrafficHasBeenQuietForThePeriod() throws Exception {
		LifecycleManager manager = LifecycleManager.builder("svc")
			.globalShutdownTimeout(Duration.ofSeconds(60))
			.drainDelay(DRAIN_DELAY)
			.drainQuietPeriod(Duration.ofMillis(500), Duration.ofMillis(200))
			.build();
		manager.start();
		AtomicBoolean trafficFlows = new AtomicBoolean(true);
		Thread clients = new Thread(() -> {
			while (trafficFlows.get()) {
				LifecycleHost.of(manager).recordActivity();
				try {
					Thread.sleep(20);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		});
		clients.start();
		LogCapture logs = LogCapture.start();
		try {
			manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
			Thread.sleep(1500);
			trafficFlows.set(false);
			ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(15)).orElseThrow();

			// Traffic flowed for 1.5 s, then 0.5 s of quiet ends the drain: far from the
			// 20 s bound.
			assertThat(drainStep(report)).isGreaterThanOrEqualTo(Duration.ofMillis(1900))
				.isLessThan(Duration.ofSeconds(10));
			assertThat(logs.messages()).anySatisfy(
					(line) -> assertThat(line).matches("Lifecycle: drain ended after \\d+ ms: quiet for PT0\\.5S"));
		}
		finally {
			logs.stop();
			clients.join();
		}
	}

	@Test
	void withoutTrafficTheDrainStillLastsItsMinimum() throws Exception {
		LifecycleManager manager = LifecycleManager.builder("svc")
			.globalShutdownTimeout(Duration.ofSeconds(60))
			.drainDelay(DRAIN_DELAY)
			.drainQuietPeriod(Duration.ofMillis(100), Duration.ofSeconds(1))
			.build();
		manager.start();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");

		ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(15)).orElseThrow();
		assertThat(drainStep(report)).isGreaterThanOrEqualTo(Duration.ofSeconds(1)).isLessThan(Duration.ofSeconds(10));
	}

	@Test
	void aMinimumLongerThanTheDrainDelayIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc")
				.drainDelay(Duration.ofSeconds(2))
				.drainQuietPeriod(Duration.ofSeconds(1), Duration.ofSeconds(3))
				.build())
			.withMessage("drainMinimum (PT3S) must be between 0 and drainDelay (PT2S)");
	}

}
