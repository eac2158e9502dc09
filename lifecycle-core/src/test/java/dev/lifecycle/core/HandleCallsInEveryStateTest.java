package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * Every handle call has a meaning in every state of its component and of the engine,
 * before the manager's start included; a call that has no effect in a state leaves the
 * outcome, the trigger and the metrics exactly as they would be without it.
 */
class HandleCallsInEveryStateTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final InMemoryLifecycleMetrics metrics = new InMemoryLifecycleMetrics();

	private final FakeTicker ticker = new FakeTicker();

	private LifecycleManager newManager() {
		return LifecycleManager.builder("svc")
			.listener(this.metrics)
			.globalShutdownTimeout(WAIT)
			.ticker(this.ticker)
			.manualHealthPolling()
			.build();
	}

	private static ShutdownReport terminate(LifecycleManager manager) throws InterruptedException {
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		return manager.awaitTermination(WAIT).orElseThrow();
	}

	// ---- before the manager's start
	// --------------------------------------------------------------

	@Test
	void workCompletedBeforeStartThenScopeClosedIsACompletionNotADeath() throws InterruptedException {
		LifecycleManager manager = newManager();
		ComponentHandle importer = manager.register("importer", ComponentOptions.defaults());

		importer.workCompleted();
		importer.processScope().close();
		manager.start();

		assertThat(manager.isShutdownInitiated()).isFalse();
		ShutdownReport report = terminate(manager);
		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.SIGNAL);
		assertThat(report.component("importer")).get()
			.extracting(ComponentReport::outcome)
			.isEqualTo(Outcome.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
		assertThat(this.metrics.results("importer", Outcome.DIED)).isZero();
		assertThat(this.metrics.results("importer", Outcome.COMPLETED)).isEqualTo(1);
	}

	@Test
	void workCompletedBeforeStartStillStartsTheComponentOnce() throws InterruptedException {
		LifecycleManager manager = newManager();
		AtomicInteger runs = new AtomicInteger();
		ComponentHandle loader = manager.registerActive("loader", ComponentOptions.defaults(),
				(handle) -> runs.incrementAndGet());

		loader.workCompleted();
		manager.start();

		await().atMost(WAIT).until(() -> manager.components().get(0).state() == ComponentState.COMPLETED);
		assertThat(runs).hasValue(1);
		assertThat(manager.isShutdownInitiated()).isFalse();
		ShutdownReport report = terminate(manager);
		assertThat(report.component("loader")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void finiteWorkCompletedBeforeStartEndsTheApplicationWithReasonCompleted() throws InterruptedException {
		LifecycleManager manager = newManager();
		ComponentHandle importer = manager.register("importer", ComponentOptions.defaults().withFinite(true));

		importer.workCompleted();
		importer.processScope().close();
		manager.start();

		ShutdownReport report = manager.awaitTermination(WAIT).orElseThrow();
		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void scopeClosedBeforeStartWithoutWorkCompletedIsADeathAndNothingStarts() throws InterruptedException {
		LifecycleManager manager = newManager();
		ComponentHandle consumer = manager.register("consumer", ComponentOptions.defaults());
		AtomicInteger otherStarts = new AtomicInteger();
		manager.registerPassive("other", ComponentOptions.defaults(), new PassiveComponent() {
			@Override
			public void start(ComponentHandle handle) {
				otherStarts.incrementAndGet();
			}

			@Override
			public void stop(ComponentHandle handle) {
			}
		});

		consumer.processScope().close();
		manager.start();

		ShutdownReport report = manager.awaitTermination(WAIT).orElseThrow();
		assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.DIED, "consumer", "ended"));
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(otherStarts).hasValue(0);
	}

	@Test
	void signalFailureBeforeStartShutsDownWithExitCodeOne() throws InterruptedException {
		LifecycleManager manager = newManager();
		ComponentHandle consumer = manager.register("consumer", ComponentOptions.defaults());

		consumer.signalFailure("no broker");
		manager.start();

		ShutdownReport report = manager.awaitTermination(WAIT).orElseThrow();
		assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.FAILURE, "consumer", "no broker"));
		assertThat(report.component("consumer")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.DIED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
	}

	@Test
	void requestShutdownBeforeStartShutsDownCleanly() throws InterruptedException {
		LifecycleManager manager = newManager();
		ComponentHandle consumer = manager.register("consumer", ComponentOptions.defaults());

		consumer.requestShutdown();
		manager.start();

		ShutdownReport report = manager.awaitTermination(WAIT).orElseThrow();
		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.REQUESTED);
		assertThat(report.component("consumer")).get()
			.extracting(ComponentReport::outcome)
			.isEqualTo(Outcome.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void heartbeatBeforeStartIsWhatTheFirstPollJudges() throws InterruptedException {
		LifecycleManager manager = newManager();
		ComponentHandle consumer = manager.register("consumer",
				ComponentOptions.defaults().withLivenessDeadline(Duration.ofSeconds(10)));

		consumer.reportHealthy();
		manager.start();
		this.ticker.advance(Duration.ofSeconds(11));
		manager.pollHealth();

		assertThat(manager.trigger()).get().extracting(ShutdownTrigger::reason).isEqualTo(ShutdownReason.STALLED);
		manager.awaitTermination(WAIT);
	}

	// ---- during a shutdown
	// -----------------------------------------------------------------------

	@Test
	void workCompletedWhileStoppingChangesNothing() throws InterruptedException {
		LifecycleManager manager = newManager();
		CountDownLatch marked = new CountDownLatch(1);
		manager.registerActive("consumer", ComponentOptions.defaults(), (handle) -> {
			handle.awaitShutdown();
			handle.workCompleted();
			marked.countDown();
		});
		manager.start();

		ShutdownReport report = terminate(manager);

		assertThat(marked.getCount()).isZero();
		assertThat(report.component("consumer")).get()
			.extracting(ComponentReport::outcome)
			.isEqualTo(Outcome.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void signalFailureWhileStoppingIsADeathButNoSecondTrigger() throws InterruptedException {
		LifecycleManager manager = newManager();
		manager.registerActive("consumer", ComponentOptions.defaults(), (handle) -> {
			handle.awaitShutdown();
			handle.signalFailure("flush failed");
		});
		manager.start();

		ShutdownReport report = terminate(manager);

		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.SIGNAL);
		assertThat(report.component("consumer")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.DIED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(this.metrics.initiated("consumer", ShutdownReason.FAILURE)).isZero();
	}

	@Test
	void requestShutdownDuringAShutdownIsOnlyLogged() throws InterruptedException {
		LifecycleManager manager = newManager();
		manager.registerActive("consumer", ComponentOptions.defaults(), (handle) -> {
			handle.awaitShutdown();
			handle.requestShutdown();
		});
		manager.start();

		ShutdownReport report = terminate(manager);

		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.SIGNAL);
		assertThat(this.metrics.initiated("consumer", ShutdownReason.REQUESTED)).isZero();
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	// ---- after the component ended
	// ---------------------------------------------------------------

	@Test
	void callsAfterTheComponentEndedLeaveItsOutcomeAlone() throws InterruptedException {
		LifecycleManager manager = newManager();
		ComponentHandle loader = manager.register("loader",
				ComponentOptions.defaults().withLivenessDeadline(Duration.ofSeconds(10)));
		manager.registerActive("server", ComponentOptions.defaults(), ComponentHandle::awaitShutdown);
		manager.start();
		loader.workCompleted();
		loader.processScope().close();

		loader.workCompleted();
		loader.signalFailure("late");
		loader.reportUnhealthy();
		ComponentHandle.CriticalSection late = loader.critical();
		this.ticker.advance(Duration.ofSeconds(30));
		manager.pollHealth();

		assertThat(manager.isShutdownInitiated()).isFalse();
		ShutdownReport report = terminate(manager);
		late.close();
		assertThat(report.component("loader")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
		assertThat(this.metrics.results("loader", Outcome.DIED)).isZero();
	}

}
