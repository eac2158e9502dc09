package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

/**
 * What the global ceiling bounds: every step from the trigger to the report, the drain
 * delay and the last steps included.
 */
class CeilingScopeTest {

	@Test
	void theCeilingCountsFromTheTriggerSoTheDrainDelayUsesItUp() throws InterruptedException {
		LifecycleManager manager = LifecycleManager.builder("svc")
			.globalShutdownTimeout(Duration.ofSeconds(3))
			.drainDelay(Duration.ofMillis(2900))
			.build();
		CountDownLatch never = new CountDownLatch(1);
		manager.addShutdownHandler("checkpoint", Duration.ofMinutes(10), never::await);
		manager.start();

		try {
			manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
			ShutdownReport report = manager.awaitTermination();

			assertThat(report.exitCode()).isEqualTo(ExitCodes.CEILING);
			assertThat(report.steps()).extracting(StepReport::kind).contains(ShutdownStep.DRAIN_DELAY);
			// Counted from the end of the drain delay instead, the ceiling would fire at
			// 5.9 s.
			assertThat(report.elapsed()).as("the ceiling fires 3 s after the trigger")
				.isLessThan(Duration.ofMillis(5500));
		}
		finally {
			never.countDown();
		}
	}

	@Test
	void theCeilingsDeadlineIsSetOnceAtTheTriggerAndTheHostReadsTheSameOne() throws InterruptedException {
		LifecycleManager manager = LifecycleManager.builder("svc")
			.globalShutdownTimeout(Duration.ofSeconds(30))
			.build();
		CountDownLatch release = new CountDownLatch(1);
		manager.addShutdownHandler("checkpoint", Duration.ofMinutes(1), release::await);
		manager.start();
		LifecycleHost host = LifecycleHost.of(manager);
		assertThat(host.ceilingDeadline()).as("no deadline before a shutdown began").isEmpty();

		long before = System.nanoTime();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		long after = System.nanoTime();
		long deadline = host.ceilingDeadline().orElseThrow();
		manager.triggerShutdown(ShutdownReason.PRESTOP, "prestop");
		try {
			assertThat(deadline).isBetween(before + Duration.ofSeconds(30).toNanos(),
					after + Duration.ofSeconds(30).toNanos());
			assertThat(host.ceilingDeadline()).as("a later trigger never moves it").hasValue(deadline);
		}
		finally {
			release.countDown();
		}
		manager.awaitTermination();
		assertThat(host.ceilingDeadline()).hasValue(deadline);
	}

	@Test
	void theCeilingCutsAHangingLastStep() throws InterruptedException {
		LifecycleManager manager = LifecycleManager.builder("svc")
			.globalShutdownTimeout(Duration.ofMillis(500))
			.build();
		CountDownLatch never = new CountDownLatch(1);
		manager.addLastStep("management-server", Duration.ofMinutes(10), never::await);
		manager.start();

		try {
			manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
			ShutdownReport report = manager.awaitTermination();

			assertThat(report.exitCode()).isEqualTo(ExitCodes.CEILING);
			assertThat(report.ceilingFired()).isTrue();
			assertThat(report.elapsed()).isLessThan(Duration.ofMinutes(1));
		}
		finally {
			never.countDown();
		}
	}

}
