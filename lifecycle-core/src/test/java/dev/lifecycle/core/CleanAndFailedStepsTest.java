package dev.lifecycle.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What makes a report clean and what its failed steps name, as {@link ShutdownReport}
 * defines them once (and docs/design.md#clean-and-failed-steps with it); the other cases
 * of the definition (a cut, an overrun, unfinished work, the ceiling, a forced exit) are
 * proved by the tests the guarantee links.
 */
class CleanAndFailedStepsTest {

	private LifecycleManager.Builder builder() {
		return LifecycleManager.builder("svc").globalShutdownTimeout(Duration.ofSeconds(20));
	}

	@Test
	void aCleanReportIgnoresFailedRequestsAndAdvisoryComponentsAndExitsZero() throws InterruptedException {
		LifecycleManager manager = builder().build();
		LifecycleHost host = LifecycleHost.of(manager);
		manager.registerPassive("pipeline", ComponentOptions.defaults(), (handle) -> {
		});
		manager.register("backup-target",
				ComponentOptions.defaults().withTier(Tier.ADVISORY).withLivenessDeadline(Duration.ofSeconds(5)));
		manager.addShutdownHandler("serve", Duration.ofSeconds(5), () -> {
			host.recordFailedRequest();
			host.recordFailedRequest();
		});
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.failedRequests()).isEqualTo(2);
		assertThat(report.failedSteps()).isEmpty();
		assertThat(report.clean()).isTrue();
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void aReportIsCleanOnlyWhenItsTriggersReasonIsClean() throws InterruptedException {
		assertThat(ShutdownReason.DIED.isClean()).isFalse();
		assertThat(ShutdownReason.STALLED.isClean()).isFalse();
		// Every reason a trigger from outside may give; the engine's own verdicts (died,
		// stalled) are never clean either.
		for (ShutdownReason reason : List.of(ShutdownReason.SIGNAL, ShutdownReason.PRESTOP, ShutdownReason.REQUESTED,
				ShutdownReason.FAILURE, ShutdownReason.START_FAILED)) {
			LifecycleManager manager = builder().build();
			manager.registerPassive("pipeline", ComponentOptions.defaults(), (handle) -> {
			});
			manager.start();

			manager.triggerShutdown(reason, "test");
			ShutdownReport report = manager.awaitTermination();

			assertThat(report.clean()).as(reason.label()).isEqualTo(reason.isClean());
			assertThat(report.exitCode()).as(reason.label())
				.isEqualTo(reason.isClean() ? ExitCodes.CLEAN : ExitCodes.FAILURE);
		}
	}

	@Test
	void failedStepsNamesEveryStepThatEndedFailedOrTimedOutInTheOrderTheyEnded() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerPassive("pipeline", ComponentOptions.defaults(), (handle) -> {
		});
		manager.addShutdownHandler("checkpoint", Duration.ofSeconds(5), () -> {
		});
		manager.addShutdownHandler("broken", Duration.ofSeconds(5), () -> {
			throw new IllegalStateException("boom");
		});
		manager.addShutdownHandler("hung", Duration.ofMillis(100), () -> new CountDownLatch(1).await());
		manager.addFinalAction("backup", () -> {
			throw new IllegalStateException("disk full");
		});
		manager.addClosingStep("web server stop", Duration.ofSeconds(5), () -> {
			throw new IllegalStateException("port");
		});
		manager.addLastStep("common pool", Duration.ofMillis(100), () -> new CountDownLatch(1).await());
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.failedSteps()).containsExactly("shutdown handler 'broken'", "shutdown handler 'hung'",
				"final action 'backup'", "closing step 'web server stop'", "last step 'common pool'");
		assertThat(report.failedSteps()).containsExactlyElementsOf(report.steps()
			.stream()
			.filter((step) -> step.result() != StepResult.OK)
			.map(StepReport::name)
			.toList());
		assertThat(report.clean()).isFalse();
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
	}

	@Test
	void aStepTheCeilingCutsIsInNeitherListAndTheCeilingsCodeApplies() throws InterruptedException {
		CountDownLatch never = new CountDownLatch(1);
		LifecycleManager manager = builder().globalShutdownTimeout(Duration.ofMillis(300)).build();
		manager.addShutdownHandler("hung", Duration.ofSeconds(30), never::await);
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();
		never.countDown();

		assertThat(report.ceilingFired()).isTrue();
		assertThat(report.failedSteps()).isEmpty();
		assertThat(report.steps()).extracting(StepReport::name).doesNotContain("shutdown handler 'hung'");
		assertThat(report.clean()).isFalse();
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CEILING);
	}

}
