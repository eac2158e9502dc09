package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

class ComponentEndingTest {

	private final InMemoryLifecycleMetrics metrics = new InMemoryLifecycleMetrics();

	private LifecycleManager newManager() {
		return LifecycleManager.builder("svc")
			.listener(this.metrics)
			.globalShutdownTimeout(Duration.ofSeconds(20))
			.build();
	}

	@Test
	void componentTimeoutThenLateFinishPreservesTimeout() throws InterruptedException {
		LifecycleManager manager = newManager();
		CountDownLatch release = new CountDownLatch(1);
		ComponentHandle slow = manager.registerPassive("slow",
				ComponentOptions.defaults().withGracefulShutdown(Duration.ofMillis(100)), (handle) -> release.await());
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();
		release.countDown();

		assertThat(report.component("slow")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.TIMEOUT);
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(threadNamed("lifecycle-stop-slow")).isFalse());
		assertThat(manager.components().get(0).state()).isEqualTo(ComponentState.TIMEOUT);
		assertThat(this.metrics.results("slow", Outcome.TIMEOUT)).isEqualTo(1);
		assertThat(this.metrics.results("slow", Outcome.COMPLETED)).isZero();
		assertThat(slow.isShuttingDown()).isTrue();
	}

	@Test
	void aComponentThatCutWorkShortCompletesButMakesTheReportNotCleanAndNamesWhatItCut() throws InterruptedException {
		LifecycleManager manager = newManager();
		manager.registerPassive("server", ComponentOptions.defaults(),
				(handle) -> handle.reportCut("orders/Place (unary, running for 2000 ms)"));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.component("server")).get().satisfies((c) -> {
			assertThat(c.outcome()).isEqualTo(Outcome.COMPLETED);
			assertThat(c.cut()).containsExactly(new Cut("orders/Place (unary, running for 2000 ms)", false));
		});
		assertThat(report.clean()).isFalse();
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void eachComponentOfAPhaseIsJudgedAtItsOwnDeadline() throws InterruptedException {
		LifecycleManager manager = newManager();
		CountDownLatch longDone = new CountDownLatch(1);
		CountDownLatch shortDone = new CountDownLatch(1);
		manager.registerPassive("long", ComponentOptions.defaults().withGracefulShutdown(Duration.ofSeconds(10)),
				(handle) -> longDone.await());
		manager.registerPassive("short", ComponentOptions.defaults().withGracefulShutdown(Duration.ofMillis(100)),
				(handle) -> shortDone.await());
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		await().atMost(Duration.ofSeconds(5))
			.until(() -> manager.components().get(1).state() == ComponentState.TIMEOUT);
		shortDone.countDown();
		longDone.countDown();
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.component("short")).get().satisfies((c) -> {
			assertThat(c.outcome()).isEqualTo(Outcome.TIMEOUT);
			assertThat(c.duration()).isLessThan(Duration.ofSeconds(5));
		});
		assertThat(report.component("long")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.COMPLETED);
	}

	@Test
	void processScopePreventsADoubleSignal() throws InterruptedException {
		LifecycleManager manager = newManager();
		ComponentHandle consumer = manager.register("consumer", ComponentOptions.defaults());
		manager.start();
		ComponentHandle.ProcessScope scope = consumer.processScope();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		consumer.awaitShutdown();
		scope.close();
		scope.close();
		consumer.processScope().close();

		ShutdownReport report = manager.awaitTermination();
		assertThat(report.component("consumer")).get()
			.extracting(ComponentReport::outcome)
			.isEqualTo(Outcome.COMPLETED);
		assertThat(this.metrics.results("consumer", Outcome.COMPLETED)).isEqualTo(1);
		assertThat(this.metrics.durations()).hasSize(1);
	}

	@Test
	void endingDuringShutdownIsCompletion() throws InterruptedException {
		LifecycleManager manager = newManager();
		manager.registerActive("consumer", ComponentOptions.defaults(), ComponentHandle::awaitShutdown);
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.component("consumer")).get()
			.extracting(ComponentReport::outcome)
			.isEqualTo(Outcome.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
		assertThat(report.clean()).isTrue();
	}

	@Test
	void endingDuringNormalOperationIsADeathThatTriggersShutdown() throws InterruptedException {
		LifecycleManager manager = newManager();
		manager.registerActive("consumer", ComponentOptions.defaults(), (handle) -> {
			// Returns at once without workCompleted().
		});
		manager.start();

		ShutdownReport report = manager.awaitTermination();

		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.DIED);
		assertThat(report.trigger().component()).isEqualTo("consumer");
		assertThat(report.component("consumer")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.DIED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(this.metrics.results("consumer", Outcome.DIED)).isEqualTo(1);
	}

	@Test
	void workCompletedPreventsDied() throws InterruptedException {
		LifecycleManager manager = newManager();
		manager.registerActive("migration", ComponentOptions.defaults(), ComponentHandle::workCompleted);
		ComponentHandle server = manager.register("server", ComponentOptions.defaults());
		manager.start();

		await().atMost(Duration.ofSeconds(5))
			.until(() -> manager.components().get(0).state() == ComponentState.COMPLETED);
		assertThat(manager.isShutdownInitiated()).isFalse();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		server.processScope().close();
		ShutdownReport report = manager.awaitTermination();
		assertThat(report.component("migration")).get()
			.extracting(ComponentReport::outcome)
			.isEqualTo(Outcome.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void anExceptionEscapingAComponentWithAProcessScopeSignalsDied() throws InterruptedException {
		LifecycleManager manager = newManager();
		ComponentHandle consumer = manager.register("consumer", ComponentOptions.defaults());
		manager.start();
		Thread worker = new Thread(() -> {
			try (ComponentHandle.ProcessScope scope = consumer.processScope()) {
				throw new IllegalStateException("poison message");
			}
		});
		worker.setUncaughtExceptionHandler((t, e) -> {
		});
		worker.start();

		ShutdownReport report = manager.awaitTermination();

		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.DIED);
		assertThat(report.trigger().component()).isEqualTo("consumer");
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
	}

	@Test
	void anErrorEscapingAnActiveComponentCountsAsDied() throws InterruptedException {
		LifecycleManager manager = newManager();
		manager.registerActive("consumer", ComponentOptions.defaults(), (handle) -> {
			throw new StackOverflowError("simulated");
		});
		manager.start();

		ShutdownReport report = manager.awaitTermination();

		assertThat(report.trigger()).extracting(ShutdownTrigger::reason, ShutdownTrigger::component)
			.containsExactly(ShutdownReason.DIED, "consumer");
		assertThat(report.component("consumer")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.DIED);
	}

	@Test
	void signalFailureTriggersShutdownWithExitCodeOne() throws InterruptedException {
		LifecycleManager manager = newManager();
		manager.registerActive("consumer", ComponentOptions.defaults(), (handle) -> {
			handle.signalFailure("broker unreachable");
		});
		manager.start();

		ShutdownReport report = manager.awaitTermination();

		assertThat(report.trigger())
			.isEqualTo(new ShutdownTrigger(ShutdownReason.FAILURE, "consumer", "broker unreachable"));
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(report.component("consumer")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.DIED);
	}

	@Test
	void observabilityFailureDuringNormalOperationTriggersShutdown() throws InterruptedException {
		LifecycleManager manager = newManager();
		ComponentHandle metricsServer = manager.register("metrics-server",
				ComponentOptions.defaults().withTier(Tier.OBSERVABILITY));
		manager.start();

		metricsServer.signalFailure("port in use");
		metricsServer.processScope().close();
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.trigger()).extracting(ShutdownTrigger::reason, ShutdownTrigger::component)
			.containsExactly(ShutdownReason.FAILURE, "metrics-server");
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
	}

	@Test
	void aStopCallbackThatThrowsEndsThatComponentAtOnceAndOthersStillDrain() throws InterruptedException {
		LifecycleManager manager = newManager();
		AtomicBoolean otherStopped = new AtomicBoolean();
		manager.registerPassive("broken", ComponentOptions.defaults().withGracefulShutdown(Duration.ofSeconds(10)),
				(handle) -> {
					throw new IllegalStateException("flush failed");
				});
		manager.registerPassive("other", ComponentOptions.defaults().withPhase(-1), (handle) -> otherStopped.set(true));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.component("broken")).get().satisfies((c) -> {
			assertThat(c.outcome()).isEqualTo(Outcome.DIED);
			assertThat(c.duration()).isLessThan(Duration.ofSeconds(5));
		});
		assertThat(otherStopped).isTrue();
		assertThat(report.component("other")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
	}

	@Test
	void aPassiveStartFailureFailsTheStartAndShutsDown() throws InterruptedException {
		LifecycleManager manager = newManager();
		manager.registerPassive("db", ComponentOptions.defaults(), new PassiveComponent() {
			@Override
			public void start(ComponentHandle handle) {
				throw new IllegalStateException("cannot open database");
			}

			@Override
			public void stop(ComponentHandle handle) {
			}
		});

		org.assertj.core.api.Assertions.assertThatIllegalStateException()
			.isThrownBy(manager::start)
			.withMessage("Lifecycle: component 'db' failed to start");
		ShutdownReport report = manager.awaitTermination();
		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.START_FAILED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
	}

	@Test
	void componentsNeverStartedAreNotStoppedAndDoNotHoldTheDrain() throws InterruptedException {
		LifecycleManager manager = newManager();
		AtomicBoolean laterStopCalled = new AtomicBoolean();
		AtomicBoolean laterRan = new AtomicBoolean();
		manager.registerPassive("db", ComponentOptions.defaults(), new PassiveComponent() {
			@Override
			public void start(ComponentHandle handle) {
				throw new IllegalStateException("cannot open database");
			}

			@Override
			public void stop(ComponentHandle handle) {
			}
		});
		manager.registerPassive("later-passive", ComponentOptions.defaults().withPhase(5),
				(handle) -> laterStopCalled.set(true));
		manager.registerActive("later-active", ComponentOptions.defaults().withPhase(5), (handle) -> {
			laterRan.set(true);
			handle.awaitShutdown();
		});

		org.assertj.core.api.Assertions.assertThatIllegalStateException().isThrownBy(manager::start);
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.ceilingFired()).isFalse();
		assertThat(report.component("later-active")).get()
			.extracting(ComponentReport::outcome)
			.isEqualTo(Outcome.COMPLETED);
		assertThat(laterStopCalled).as("stop without start").isFalse();
		assertThat(laterRan).isFalse();
	}

	@Test
	void everyComponentOutcomeIsRecordedBeforeTheReportIsPublished() throws InterruptedException {
		java.util.concurrent.atomic.AtomicLong endedWhenReported = new java.util.concurrent.atomic.AtomicLong(-1);
		InMemoryLifecycleMetrics recorded = new InMemoryLifecycleMetrics();
		java.util.concurrent.atomic.AtomicLong ended = new java.util.concurrent.atomic.AtomicLong();
		LifecycleManager manager = LifecycleManager.builder("svc").listener(recorded).listener(new LifecycleListener() {
			@Override
			public void onComponentEnded(ComponentReport report) {
				ended.incrementAndGet();
			}

			@Override
			public void onShutdownCompleted(ShutdownReport report) {
				endedWhenReported.set(ended.get());
			}
		}).build();
		for (int i = 0; i < 50; i++) {
			manager.registerPassive("c" + i, ComponentOptions.defaults(), (handle) -> {
			});
		}
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		manager.awaitTermination();

		assertThat(endedWhenReported).hasValue(50);
		assertThat(recorded.durations()).hasSize(50);
	}

	@Test
	void advisoryDeathDoesNotTriggerShutdown() throws InterruptedException {
		LifecycleManager manager = newManager();
		manager.registerActive("backup-target",
				ComponentOptions.defaults().withTier(Tier.ADVISORY).withLivenessDeadline(Duration.ofSeconds(5)),
				(handle) -> {
				});
		manager.start();

		await().atMost(Duration.ofSeconds(5)).until(() -> manager.components().get(0).state() == ComponentState.DIED);
		assertThat(manager.isShutdownInitiated()).isFalse();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		assertThat(manager.awaitTermination().exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	private static boolean threadNamed(String name) {
		return Thread.getAllStackTraces().keySet().stream().anyMatch((t) -> t.getName().equals(name));
	}

}
