package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class TriggerTest {

	private static final java.util.List<ShutdownReason> EXTERNAL_REASONS = java.util.List.of(ShutdownReason.SIGNAL,
			ShutdownReason.PRESTOP, ShutdownReason.REQUESTED, ShutdownReason.FAILURE);

	private final InMemoryLifecycleMetrics metrics = new InMemoryLifecycleMetrics();

	private LifecycleManager.Builder builder() {
		return LifecycleManager.builder("svc").listener(this.metrics).globalShutdownTimeout(Duration.ofSeconds(20));
	}

	@Test
	void triggerSourcesAndStepResultsKeepTheLabelsThatLogsMetricsAndReportsCarry() {
		assertThat(List.of(TriggerSource.values())).extracting(TriggerSource::label)
			.containsExactly("signal", "prestop", "context-close", "refresh", "application-run",
					"spring-application-exit", "test");
		assertThat(List.of(StepResult.values())).extracting(StepResult::label)
			.containsExactly("ok", "failed", "timeout", "unknown");
	}

	@Test
	void readinessIsUpUntilShutdownAndDownFromItsFirstInstant() throws InterruptedException {
		List<String> seen = new CopyOnWriteArrayList<>();
		AtomicBoolean readyWhenStopTold = new AtomicBoolean(true);
		LifecycleManager[] holder = new LifecycleManager[1];
		LifecycleManager manager = builder().listener(new LifecycleListener() {
			@Override
			public void onShutdownInitiated(ShutdownTrigger trigger) {
				seen.add("initiated ready=" + holder[0].isReady());
			}
		}).build();
		holder[0] = manager;
		manager.registerPassive("http", ComponentOptions.defaults(), (handle) -> {
			readyWhenStopTold.set(manager.isReady());
			seen.add("stop");
		});
		manager.start();
		assertThat(manager.isReady()).isTrue();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");

		assertThat(manager.isReady()).isFalse();
		manager.awaitTermination();
		assertThat(seen).containsExactly("initiated ready=false", "stop");
		assertThat(readyWhenStopTold).isFalse();
	}

	@Test
	void listenersHearOfTheShutdownOnTheSequencesThreadSoASlowOneNeverHoldsTheTriggeringThread()
			throws InterruptedException {
		List<String> threads = new CopyOnWriteArrayList<>();
		CountDownLatch release = new CountDownLatch(1);
		LifecycleManager manager = builder().listener(new LifecycleListener() {
			@Override
			public void onShutdownInitiated(ShutdownTrigger trigger) {
				threads.add(Thread.currentThread().getName());
				try {
					release.await(10, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}).build();
		manager.start();

		assertThat(manager.triggerShutdown(ShutdownReason.SIGNAL, "signal")).as("the trigger returns at once").isTrue();
		assertThat(manager.isReady()).isFalse();
		await().atMost(Duration.ofSeconds(10)).until(() -> !threads.isEmpty());
		assertThat(threads).containsExactly("lifecycle-shutdown");
		release.countDown();
		assertThat(manager.awaitTermination().clean()).isTrue();
	}

	@Test
	void aSecondSignalRightAfterTheFirstReachesTheListenersAfterTheShutdownsStartNeverBefore()
			throws InterruptedException {
		List<String> events = new CopyOnWriteArrayList<>();
		CountDownLatch slowStart = new CountDownLatch(1);
		LifecycleManager manager = builder().listener(new LifecycleListener() {
			@Override
			public void onShutdownInitiated(ShutdownTrigger trigger) {
				try {
					// The sequence's thread is slow to tell the listeners.
					slowStart.await(5, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				events.add("initiated");
			}

			@Override
			public void onForcedExit(int exitCode) {
				events.add("forced " + exitCode);
			}
		}).build();
		manager.start();
		Thread caller = Thread.currentThread();
		// Told once the second signal's caller waits for the start to be heard (without
		// that wait, the forced exit is heard first and the test fails).
		Thread release = new Thread(() -> {
			try {
				await().atMost(Duration.ofSeconds(5))
					.pollInterval(Duration.ofMillis(1))
					.until(() -> manager.isShutdownInitiated() && caller.getState() == Thread.State.TIMED_WAITING);
			}
			finally {
				slowStart.countDown();
			}
		});
		release.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		assertThat(LifecycleHost.of(manager).forceExit()).isEqualTo(ExitCodes.FORCED);

		assertThat(events).containsExactly("initiated", "forced " + ExitCodes.FORCED);
		release.join();
	}

	@Test
	void aShutdownTriggeredBeforeTheStartEndsCleanlyAndTheLaterStartStartsNothing() throws InterruptedException {
		List<Thread> engineThreads = new CopyOnWriteArrayList<>();
		LifecycleManager manager = builder().healthPollInterval(Duration.ofMillis(50)).threadFactory((task) -> {
			Thread thread = new Thread(task);
			thread.setDaemon(true);
			engineThreads.add(thread);
			return thread;
		}).build();
		AtomicBoolean ran = new AtomicBoolean();
		manager.registerActive("worker", ComponentOptions.defaults().withLivenessDeadline(Duration.ofSeconds(5)),
				(handle) -> ran.set(true));

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();
		// The sequence's last act ends the engine's threads: the start comes after all of
		// it.
		await().atMost(Duration.ofSeconds(10)).until(() -> engineThreads.stream().noneMatch(Thread::isAlive));
		manager.start();

		assertThat(report.clean()).isTrue();
		assertThat(report.exitCode()).isZero();
		assertThat(manager.report()).contains(report);
		assertThat(ran).as("the component never runs").isFalse();
		assertThat(manager.isReady()).isFalse();
	}

	@Test
	void theShutdownSignalWakesABlockedWaiterPromptly() throws InterruptedException {
		LifecycleManager manager = builder().build();
		AtomicLong wokeAfterNanos = new AtomicLong(-1);
		AtomicLong toldAt = new AtomicLong();
		manager.registerActive("consumer", ComponentOptions.defaults(), (handle) -> {
			handle.awaitShutdown();
			wokeAfterNanos.set(System.nanoTime() - toldAt.get());
		});
		manager.start();

		toldAt.set(System.nanoTime());
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		manager.awaitTermination();

		// Far below any polling interval; generous for a loaded machine.
		assertThat(Duration.ofNanos(wokeAfterNanos.get())).isBetween(Duration.ZERO, Duration.ofSeconds(2));
	}

	@Test
	void onShutdownCallbacksAndTheStageFireWhenTheComponentIsToldToStop() throws InterruptedException {
		LifecycleManager manager = builder().build();
		ComponentHandle consumer = manager.register("consumer", ComponentOptions.defaults());
		CountDownLatch callback = new CountDownLatch(1);
		CountDownLatch stage = new CountDownLatch(1);
		consumer.onShutdown(callback::countDown);
		consumer.shutdownStage().thenRun(stage::countDown);
		consumer.onShutdown(() -> consumer.processScope().close());
		manager.start();
		assertThat(consumer.awaitShutdown(Duration.ofMillis(10))).isFalse();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");

		assertThat(callback.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(stage.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(consumer.awaitShutdown(Duration.ofSeconds(5))).isTrue();
		assertThat(manager.awaitTermination().clean()).isTrue();
	}

	@Test
	void aSecondTriggerNeverReRunsTheSequenceAndIsRecordedNowhereAsTheTrigger() throws InterruptedException {
		AtomicLong initiatedCallbacks = new AtomicLong();
		AtomicLong completedCallbacks = new AtomicLong();
		LifecycleManager manager = builder().listener(new LifecycleListener() {
			@Override
			public void onShutdownInitiated(ShutdownTrigger trigger) {
				initiatedCallbacks.incrementAndGet();
			}

			@Override
			public void onShutdownCompleted(ShutdownReport report) {
				completedCallbacks.incrementAndGet();
			}
		}).build();
		AtomicLong stops = new AtomicLong();
		CountDownLatch release = new CountDownLatch(1);
		ComponentHandle consumer = manager.registerPassive("consumer", ComponentOptions.defaults(), (handle) -> {
			stops.incrementAndGet();
			release.await();
		});
		manager.start();

		assertThat(manager.triggerShutdown(ShutdownReason.PRESTOP, "prestop")).isTrue();
		assertThat(manager.triggerShutdown(ShutdownReason.SIGNAL, "signal")).isFalse();
		org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> stops.get() == 1);
		consumer.signalFailure("late failure");
		consumer.requestShutdown();
		release.countDown();
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.PRESTOP, "prestop", ""));
		assertThat(stops).hasValue(1);
		assertThat(report.component("consumer")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.DIED);
		assertThat(initiatedCallbacks).hasValue(1);
		assertThat(completedCallbacks).hasValue(1);
		assertThat(this.metrics.initiatedTotal()).isEqualTo(1);
		assertThat(this.metrics.initiated("prestop", ShutdownReason.PRESTOP)).isEqualTo(1);
	}

	@Test
	void concurrentTriggersStartExactlyOneSequence() throws Exception {
		for (int round = 0; round < 20; round++) {
			AtomicLong sequences = new AtomicLong();
			LifecycleManager manager = builder().listener(new LifecycleListener() {
				@Override
				public void onShutdownInitiated(ShutdownTrigger trigger) {
					sequences.incrementAndGet();
				}
			}).build();
			AtomicLong stops = new AtomicLong();
			manager.registerPassive("consumer", ComponentOptions.defaults(), (handle) -> stops.incrementAndGet());
			manager.start();
			CountDownLatch go = new CountDownLatch(1);
			AtomicLong winners = new AtomicLong();
			Thread[] racers = new Thread[8];
			for (int i = 0; i < racers.length; i++) {
				ShutdownReason reason = EXTERNAL_REASONS.get(i % EXTERNAL_REASONS.size());
				racers[i] = new Thread(() -> {
					try {
						go.await();
					}
					catch (InterruptedException ex) {
						return;
					}
					if (manager.triggerShutdown(reason, "racer")) {
						winners.incrementAndGet();
					}
				});
				racers[i].start();
			}
			go.countDown();
			for (Thread racer : racers) {
				racer.join();
			}
			manager.awaitTermination();

			assertThat(winners).hasValue(1);
			assertThat(sequences).hasValue(1);
			assertThat(stops).hasValue(1);
			assertThat(this.metrics.initiatedTotal()).isEqualTo(round + 1);
		}
	}

	@Test
	void requestShutdownWithDelayFiresAfterTheDelayAndTheEarliestRequestWins() throws InterruptedException {
		LifecycleManager manager = builder().build();
		ComponentHandle slowRequester = manager.register("slow-requester", ComponentOptions.defaults());
		ComponentHandle fastRequester = manager.register("fast-requester", ComponentOptions.defaults());
		manager.start();
		slowRequester.onShutdown(() -> slowRequester.processScope().close());
		fastRequester.onShutdown(() -> fastRequester.processScope().close());
		long requestedAt = System.nanoTime();

		slowRequester.requestShutdown(Duration.ofSeconds(30));
		fastRequester.requestShutdown(Duration.ofMillis(200));
		assertThat(manager.isShutdownInitiated()).isFalse();

		ShutdownReport report = manager.awaitTermination();
		assertThat(Duration.ofNanos(System.nanoTime() - requestedAt)).isGreaterThanOrEqualTo(Duration.ofMillis(200))
			.isLessThan(Duration.ofSeconds(20));
		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.REQUESTED);
		assertThat(report.trigger().component()).isEqualTo("fast-requester");
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void requestShutdownWithoutDelayIsImmediateAndClean() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerActive("job", ComponentOptions.defaults(), (handle) -> handle.requestShutdown());
		manager.start();

		ShutdownReport report = manager.awaitTermination();

		assertThat(report.trigger()).extracting(ShutdownTrigger::reason, ShutdownTrigger::component)
			.containsExactly(ShutdownReason.REQUESTED, "job");
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
		assertThat(report.clean()).isTrue();
	}

	@Test
	void automaticCompletionWhenAllFiniteWorkIsDone() throws InterruptedException {
		LifecycleManager manager = builder().build();
		CountDownLatch secondMayFinish = new CountDownLatch(1);
		manager.registerActive("import-a", ComponentOptions.defaults().withFinite(true),
				ComponentHandle::workCompleted);
		manager.registerActive("import-b", ComponentOptions.defaults().withFinite(true), (handle) -> {
			secondMayFinish.await();
			handle.workCompleted();
		});
		manager.start();

		await().atMost(Duration.ofSeconds(5))
			.until(() -> manager.components().get(0).state() == ComponentState.COMPLETED);
		assertThat(manager.isShutdownInitiated()).as("one finite component still working").isFalse();
		secondMayFinish.countDown();

		ShutdownReport report = manager.awaitTermination();
		assertThat(report.trigger()).extracting(ShutdownTrigger::reason, ShutdownTrigger::component)
			.containsExactly(ShutdownReason.COMPLETED, "import-b");
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void supportingComponentsNeitherHoldBackNorTriggerAutomaticCompletionAndAreStoppedByIt()
			throws InterruptedException {
		LifecycleManager manager = builder().build();
		CountDownLatch importMayFinish = new CountDownLatch(1);
		AtomicInteger executorStops = new AtomicInteger();
		manager.registerPassive("applicationTaskExecutor", ComponentOptions.defaults().withSupporting(true),
				new PassiveComponent() {
					@Override
					public void start(ComponentHandle handle) {
					}

					@Override
					public void stop(ComponentHandle handle) {
						executorStops.incrementAndGet();
					}
				});
		manager.registerActive("import", ComponentOptions.defaults().withFinite(true), (handle) -> {
			importMayFinish.await();
			handle.workCompleted();
		});
		manager.start();
		assertThat(manager.isShutdownInitiated()).as("the finite import still works").isFalse();

		importMayFinish.countDown();

		ShutdownReport report = manager.awaitTermination();
		assertThat(report.trigger()).extracting(ShutdownTrigger::reason, ShutdownTrigger::component)
			.containsExactly(ShutdownReason.COMPLETED, "import");
		assertThat(report.component("applicationTaskExecutor")).get()
			.extracting(ComponentReport::outcome)
			.isEqualTo(Outcome.COMPLETED);
		assertThat(executorStops).hasValue(1);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void automaticCompletionIsOffWithoutAFiniteComponent() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerActive("migration", ComponentOptions.defaults(), ComponentHandle::workCompleted);
		manager.start();

		await().atMost(Duration.ofSeconds(5))
			.until(() -> manager.components().get(0).state() == ComponentState.COMPLETED);
		assertThat(manager.isShutdownInitiated()).isFalse();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		manager.awaitTermination();
	}

	@Test
	void forceExitReportsCode128AndCountsNoCompletion() throws InterruptedException {
		LifecycleManager manager = builder().build();
		CountDownLatch release = new CountDownLatch(1);
		manager.registerPassive("slow", ComponentOptions.defaults(), (handle) -> release.await());
		manager.start();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");

		assertThat(LifecycleHost.of(manager).forceExit()).isEqualTo(ExitCodes.FORCED);
		assertThat(this.metrics.completed(true) + this.metrics.completed(false)).isZero();
		release.countDown();
		manager.awaitTermination();
	}

}
