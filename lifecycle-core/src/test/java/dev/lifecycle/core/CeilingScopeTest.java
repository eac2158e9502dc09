package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

/**
 * What the global ceiling bounds: every step from the trigger to the report, the first (the drain
 * delay) and the last (the last steps) included.
 */
class CeilingScopeTest {

	@Test
	void theCeilingCountsFromTheTriggerAndCutsTheDrainDelay() throws InterruptedException {
		LifecycleManager manager = LifecycleManager.builder("svc")
			.globalShutdownTimeout(Duration.ofMillis(500))
			.drainDelay(Duration.ofMinutes(10))
			.build();
		manager.register("worker", ComponentOptions.defaults());
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.exitCode()).isEqualTo(ExitCodes.CEILING);
		assertThat(report.elapsed()).as("cut at the ceiling, not at the drain delay's end")
			.isLessThan(Duration.ofMinutes(1));
		assertThat(report.steps()).extracting(StepReport::kind).doesNotContain(ShutdownStep.DRAIN_DELAY);
	}

	@Test
	void theCeilingCutsAHangingLastStep() throws InterruptedException {
		LifecycleManager manager = LifecycleManager.builder("svc").globalShutdownTimeout(Duration.ofMillis(500)).build();
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
