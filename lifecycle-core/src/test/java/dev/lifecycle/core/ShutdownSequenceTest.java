package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

class ShutdownSequenceTest {

	private final InMemoryLifecycleMetrics metrics = new InMemoryLifecycleMetrics();

	private final List<String> events = new CopyOnWriteArrayList<>();

	private LifecycleManager.Builder builder() {
		return LifecycleManager.builder("svc").listener(this.metrics).globalShutdownTimeout(Duration.ofSeconds(20));
	}

	private PassiveComponent recording(String name) {
		return (handle) -> this.events.add("stop " + name);
	}

	@Test
	void phasesDrainHighestFirst() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerPassive("db", ComponentOptions.defaults().withPhase(0), recording("db"));
		manager.registerPassive("http", ComponentOptions.defaults().withPhase(20), recording("http"));
		manager.registerPassive("pipeline", ComponentOptions.defaults().withPhase(10), recording("pipeline"));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(this.events).containsExactly("stop http", "stop pipeline", "stop db");
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
		assertThat(report.clean()).isTrue();
		assertThat(report.components()).extracting(ComponentReport::outcome).containsOnly(Outcome.COMPLETED);
	}

	@Test
	void componentsOfOnePhaseDrainConcurrently() throws InterruptedException {
		LifecycleManager manager = builder().build();
		CountDownLatch allStopping = new CountDownLatch(3);
		for (int i = 0; i < 3; i++) {
			// Each stop returns only once all three are stopping: a serial drain would
			// never finish.
			manager.registerPassive("worker-" + i,
					ComponentOptions.defaults().withGracefulShutdown(Duration.ofSeconds(10)), (handle) -> {
						allStopping.countDown();
						allStopping.await();
					});
		}
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");

		assertThat(manager.awaitTermination().components()).extracting(ComponentReport::outcome)
			.containsOnly(Outcome.COMPLETED);
	}

	@Test
	void thousandComponentsInTenPhasesTakeAboutTheSumOfPhaseMaxima() throws InterruptedException {
		LifecycleManager manager = builder().build();
		Random random = new Random(42);
		long sumOfPhaseMaxima = 0;
		long sumOfAll = 0;
		for (int phase = 0; phase < 10; phase++) {
			long phaseMax = 0;
			for (int i = 0; i < 100; i++) {
				long millis = 20 + random.nextInt(31);
				phaseMax = Math.max(phaseMax, millis);
				sumOfAll += millis;
				manager.registerPassive("c-" + phase + "-" + i, ComponentOptions.defaults().withPhase(phase),
						(handle) -> TimeUnit.MILLISECONDS.sleep(millis));
			}
			sumOfPhaseMaxima += phaseMax;
		}
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.components()).hasSize(1000)
			.extracting(ComponentReport::outcome)
			.containsOnly(Outcome.COMPLETED);
		// Serial stopping would take Σ all (~35 s); phase-concurrent takes about Σ
		// per-phase max (~0.5 s).
		// The bound is generous for a loaded 2-core machine and still far below the
		// serial time.
		assertThat(report.elapsed()).isLessThan(Duration.ofMillis(sumOfPhaseMaxima + 4_000))
			.isLessThan(Duration.ofMillis(sumOfAll / 5));
	}

	@Test
	void shutdownHandlersRunBeforeTheDrainWhileComponentsStillRun() throws InterruptedException {
		LifecycleManager manager = builder().build();
		ComponentHandle pipeline = manager.registerPassive("pipeline", ComponentOptions.defaults(),
				recording("pipeline"));
		AtomicBoolean pipelineRunningDuringHandler = new AtomicBoolean();
		manager.addShutdownHandler("checkpoint", Duration.ofSeconds(5), () -> {
			pipelineRunningDuringHandler.set(!pipeline.isShuttingDown());
			this.events.add("handler checkpoint");
		});
		manager.addShutdownHandler("backup", Duration.ofSeconds(5), () -> this.events.add("handler backup"));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		manager.awaitTermination();

		assertThat(this.events).containsExactly("handler checkpoint", "handler backup", "stop pipeline");
		assertThat(pipelineRunningDuringHandler).isTrue();
	}

	@Test
	void aHandlerThatThrowsOrTimesOutLetsTheSequenceGoOnButMakesTheReportUnclean() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerPassive("pipeline", ComponentOptions.defaults(), recording("pipeline"));
		manager.addShutdownHandler("broken", Duration.ofSeconds(5), () -> {
			throw new IllegalStateException("boom");
		});
		manager.addShutdownHandler("hung", Duration.ofMillis(100), () -> new CountDownLatch(1).await());
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(this.events).containsExactly("stop pipeline");
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(report.clean()).isFalse();
		assertThat(report.failedSteps()).containsExactly("shutdown handler 'broken'", "shutdown handler 'hung'");
	}

	@Test
	void closingStepsRunAfterTheObservabilityDrainInOrderAddedAndAFailedOneMakesTheReportUnclean()
			throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerPassive("pipeline", ComponentOptions.defaults(), recording("pipeline"));
		manager.registerPassive("metrics", ComponentOptions.defaults().withTier(Tier.OBSERVABILITY),
				recording("metrics"));
		manager.addClosingStep("web-server-graceful", Duration.ofSeconds(5), () -> this.events.add("graceful"));
		manager.addClosingStep("web-server-stop", Duration.ofMillis(100), () -> {
			this.events.add("stop");
			new CountDownLatch(1).await();
		});
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(this.events).containsExactly("stop pipeline", "stop metrics", "graceful", "stop");
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(report.failedSteps()).containsExactly("closing step 'web-server-stop'");
	}

	@Test
	void listenersHearEachStepBeginAndEndAndEachComponentToldToStopBeforeItEnds() throws InterruptedException {
		List<String> heard = new CopyOnWriteArrayList<>();
		LifecycleManager manager = builder().listener(new LifecycleListener() {
			@Override
			public void onStepStarted(String step) {
				heard.add("start " + step);
			}

			@Override
			public void onStepCompleted(StepReport step) {
				heard.add("end " + step.name() + " " + step.result().label());
			}

			@Override
			public void onComponentStopping(ComponentView component) {
				heard.add("stopping " + component.name());
			}

			@Override
			public void onComponentEnded(ComponentReport report) {
				heard.add("ended " + report.name() + " " + report.outcome().label());
			}
		}).build();
		manager.registerPassive("pipeline", ComponentOptions.defaults().withPhase(5), recording("pipeline"));
		manager.registerPassive("metrics", ComponentOptions.defaults().withTier(Tier.OBSERVABILITY),
				recording("metrics"));
		manager.addShutdownHandler("checkpoint", Duration.ofSeconds(5), () -> this.events.add("checkpoint"));
		manager.addClosingStep("web-server-stop", Duration.ofSeconds(5), () -> this.events.add("web"));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		manager.awaitTermination();

		assertThat(heard).containsExactly("start drain delay", "end drain delay ok",
				"start shutdown handler 'checkpoint'", "end shutdown handler 'checkpoint' ok",
				"start standard drain, phase 5", "stopping pipeline", "ended pipeline completed",
				"end standard drain, phase 5 ok", "start observability drain", "stopping metrics",
				"ended metrics completed", "end observability drain ok", "start closing step 'web-server-stop'",
				"end closing step 'web-server-stop' ok");
	}

	@Test
	void aComponentThatDiedBeforeTheShutdownIsNotToldToStopAgain() throws InterruptedException {
		List<String> stopping = new CopyOnWriteArrayList<>();
		LifecycleManager manager = builder().listener(new LifecycleListener() {
			@Override
			public void onComponentStopping(ComponentView component) {
				stopping.add(component.name());
			}
		}).build();
		ComponentHandle broken = manager.registerPassive("broken", ComponentOptions.defaults(), recording("broken"));
		manager.registerPassive("pipeline", ComponentOptions.defaults(), recording("pipeline"));
		manager.start();

		broken.signalFailure(new IllegalStateException("disk gone"));
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(stopping).containsExactly("pipeline");
	}

	@Test
	void finalActionsRunAfterTheDrainInReverseRegistrationOrder() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerPassive("pipeline", ComponentOptions.defaults(), recording("pipeline"));
		manager.registerPassive("metrics", ComponentOptions.defaults().withTier(Tier.OBSERVABILITY),
				recording("metrics"));
		manager.addFinalAction("close-pool", () -> this.events.add("final close-pool"));
		manager.addFinalAction("flush-log", () -> this.events.add("final flush-log"));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		manager.awaitTermination();

		assertThat(this.events).containsExactly("stop pipeline", "final flush-log", "final close-pool", "stop metrics");
	}

	@Test
	void aStepThatFailsWithAnErrorStillLetsEveryLaterStepRunAndTheReportSaysFailure() throws InterruptedException {
		LifecycleManager manager = builder().listener(new LifecycleListener() {
			@Override
			public void onComponentStopping(ComponentView component) {
				if (component.name().equals("http")) {
					throw new AssertionError("a listener broke with an Error");
				}
			}
		}).build();
		manager.registerPassive("http", ComponentOptions.defaults().withPhase(20), recording("http"));
		manager.registerPassive("db", ComponentOptions.defaults().withPhase(0), recording("db"));
		manager.registerPassive("metrics", ComponentOptions.defaults().withTier(Tier.OBSERVABILITY),
				recording("metrics"));
		manager.addFinalAction("backup", () -> {
			this.events.add("final backup");
			throw new StackOverflowError("backup broke");
		});
		manager.addFinalAction("flush", () -> this.events.add("final flush"));
		manager.addClosingStep("web-server-stop", Duration.ofSeconds(5),
				() -> this.events.add("closing web-server-stop"));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(this.events).containsExactly("stop db", "final flush", "final backup", "stop metrics",
				"closing web-server-stop");
		assertThat(report.failedSteps()).containsExactly("standard drain, phase 20", "final action 'backup'");
		assertThat(report.clean()).isFalse();
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(report.steps()).extracting(StepReport::name, StepReport::result)
			.contains(org.assertj.core.groups.Tuple.tuple("standard drain, phase 20", StepResult.FAILED),
					org.assertj.core.groups.Tuple.tuple("standard drain, phase 0", StepResult.OK));
	}

	@Test
	void observabilityComponentsStopAfterStandardOnes() throws InterruptedException {
		LifecycleManager manager = builder().build();
		ComponentHandle metricsServer = manager.register("metrics-server",
				ComponentOptions.defaults().withTier(Tier.OBSERVABILITY).withPhase(100));
		AtomicBoolean metricsUpWhileConsumerDrained = new AtomicBoolean();
		manager.registerPassive("consumer", ComponentOptions.defaults(), (handle) -> {
			metricsUpWhileConsumerDrained.set(!metricsServer.isShuttingDown());
			this.events.add("stop consumer");
		});
		Thread server = new Thread(() -> {
			try (ComponentHandle.ProcessScope scope = metricsServer.processScope()) {
				metricsServer.awaitShutdown();
				this.events.add("stop metrics-server");
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		server.start();
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(this.events).containsExactly("stop consumer", "stop metrics-server");
		assertThat(metricsUpWhileConsumerDrained).isTrue();
		assertThat(report.component("metrics-server")).get()
			.extracting(ComponentReport::outcome)
			.isEqualTo(Outcome.COMPLETED);
	}

	@Test
	void observabilityComponentGetsAOneSecondBudgetByDefault() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.register("metrics-server", ComponentOptions.defaults().withTier(Tier.OBSERVABILITY));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.component("metrics-server")).get()
			.extracting(ComponentReport::outcome)
			.isEqualTo(Outcome.TIMEOUT);
		assertThat(report.component("metrics-server").get().duration()).isGreaterThanOrEqualTo(Duration.ofSeconds(1))
			.isLessThan(Duration.ofSeconds(10));
		assertThat(report.clean()).isFalse();
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void advisoryComponentsAreNeverWaitedFor() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.register("backup-target",
				ComponentOptions.defaults().withTier(Tier.ADVISORY).withLivenessDeadline(Duration.ofSeconds(5)));
		manager.registerPassive("pipeline", ComponentOptions.defaults(), recording("pipeline"));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.elapsed()).isLessThan(Duration.ofSeconds(5));
		assertThat(report.component("backup-target")).isEmpty();
		assertThat(report.clean()).isTrue();
	}

	@Test
	void globalTimeoutFiresWhenAComponentHangs() throws InterruptedException {
		LifecycleManager manager = builder().globalShutdownTimeout(Duration.ofMillis(300)).build();
		CountDownLatch never = new CountDownLatch(1);
		manager.registerActive("stuck-consumer", ComponentOptions.defaults(), (handle) -> never.await());
		manager.registerPassive("fine", ComponentOptions.defaults().withPhase(-1), recording("fine"));
		manager.start();

		LogCapture logs = LogCapture.start();
		try {
			manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
			ShutdownReport report = manager.awaitTermination();

			assertThat(report.exitCode()).isEqualTo(ExitCodes.CEILING);
			assertThat(report.ceilingFired()).isTrue();
			assertThat(report.clean()).isFalse();
			assertThat(report.component("stuck-consumer")).get()
				.extracting(ComponentReport::outcome)
				.isEqualTo(Outcome.TIMEOUT);
			assertThat(report.component("fine")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.TIMEOUT);
			assertThat(this.metrics.completed(true) + this.metrics.completed(false))
				.as("completed is not counted when the ceiling fires")
				.isZero();
			assertThat(logs.messages())
				.anySatisfy((line) -> assertThat(line).contains("global shutdown timeout of PT0.3S expired")
					.contains("component 'stuck-consumer' (tier STANDARD, phase 0, told to stop")
					.contains("thread \"lifecycle-stuck-consumer\" WAITING")
					.contains("java.util.concurrent.CountDownLatch.await(")
					.contains("component 'fine' (tier STANDARD, phase -1, not yet told to stop"));
		}
		finally {
			logs.stop();
			never.countDown();
		}
	}

	@Test
	void nothingRunsAfterTheCeilingCutTheSequence() throws InterruptedException {
		// The ceiling settles components one by one; slowing the second one holds open
		// the window in which the first one's settlement has already woken the sequence
		// thread normally.
		LifecycleManager manager = builder().globalShutdownTimeout(Duration.ofMillis(300))
			.listener(new LifecycleListener() {
				@Override
				public void onComponentEnded(ComponentReport report) {
					if (report.name().equals("metrics-server")) {
						try {
							TimeUnit.MILLISECONDS.sleep(300);
						}
						catch (InterruptedException ex) {
							Thread.currentThread().interrupt();
						}
					}
				}
			})
			.build();
		CountDownLatch never = new CountDownLatch(1);
		// Its budget outlives the ceiling: the ceiling settles it, which wakes the
		// sequence normally.
		manager.registerPassive("stuck", ComponentOptions.defaults().withGracefulShutdown(Duration.ofSeconds(30)),
				(handle) -> never.await());
		ComponentHandle metricsServer = manager.register("metrics-server",
				ComponentOptions.defaults().withTier(Tier.OBSERVABILITY));
		AtomicBoolean finalActionRan = new AtomicBoolean();
		manager.addFinalAction("close-store", () -> finalActionRan.set(true));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		assertThat(manager.awaitTermination().exitCode()).isEqualTo(ExitCodes.CEILING);

		await().during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(5))
			.until(() -> !finalActionRan.get() && !metricsServer.isShuttingDown());
		never.countDown();
	}

	@Test
	void infrastructureStopsAfterEverythingThatUsesItWhateverItsPhaseAndLastStepsAfterIt() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerPassive("executor",
				ComponentOptions.defaults().withPhase(Integer.MAX_VALUE / 2).withTier(Tier.INFRASTRUCTURE),
				recording("executor"));
		manager.registerPassive("pool", ComponentOptions.defaults().withPhase(-100).withTier(Tier.INFRASTRUCTURE),
				recording("pool"));
		manager.registerPassive("api", ComponentOptions.defaults().withPhase(20), recording("api"));
		manager.registerPassive("metrics", ComponentOptions.defaults().withTier(Tier.OBSERVABILITY),
				recording("metrics"));
		manager.addFinalAction("backup", () -> this.events.add("backup"));
		manager.addClosingStep("web-server-stop", Duration.ofSeconds(5), () -> this.events.add("web server stop"));
		manager.addLastStep("management-server-stop", Duration.ofSeconds(5),
				() -> this.events.add("management server stop"));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(this.events).containsExactly("stop api", "backup", "stop metrics", "web server stop",
				"stop executor", "stop pool", "management server stop");
		assertThat(report.clean()).isTrue();
		assertThat(report.steps()).extracting(StepReport::name)
			.contains("infrastructure drain, phase " + (Integer.MAX_VALUE / 2), "infrastructure drain, phase -100",
					"last step 'management-server-stop'");
	}

	@Test
	void everyStepInTheReportSaysItsKindInSequenceOrderAndItsNameStartsWithTheKindsLabel() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerPassive("api", ComponentOptions.defaults().withPhase(20), recording("api"));
		manager.registerPassive("metrics", ComponentOptions.defaults().withTier(Tier.OBSERVABILITY),
				recording("metrics"));
		manager.registerPassive("pool", ComponentOptions.defaults().withTier(Tier.INFRASTRUCTURE), recording("pool"));
		manager.addShutdownHandler("checkpoint", Duration.ofSeconds(5), () -> this.events.add("checkpoint"));
		manager.addFinalAction("backup", () -> this.events.add("backup"));
		manager.addClosingStep("web-server-stop", Duration.ofSeconds(5), () -> {
			throw new IllegalStateException("port stuck");
		});
		manager.addLastStep("management-server-stop", Duration.ofSeconds(5), () -> this.events.add("management"));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.steps()).extracting(StepReport::kind)
			.containsExactly(ShutdownStep.DRAIN_DELAY, ShutdownStep.SHUTDOWN_HANDLER, ShutdownStep.STANDARD_DRAIN,
					ShutdownStep.FINAL_ACTION, ShutdownStep.OBSERVABILITY_DRAIN, ShutdownStep.CLOSING_STEP,
					ShutdownStep.INFRASTRUCTURE_DRAIN, ShutdownStep.LAST_STEP);
		assertThat(report.steps()).extracting(StepReport::name)
			.containsExactly("drain delay", "shutdown handler 'checkpoint'", "standard drain, phase 20",
					"final action 'backup'", "observability drain", "closing step 'web-server-stop'",
					"infrastructure drain, phase 0", "last step 'management-server-stop'");
		assertThat(report.steps()).allSatisfy((step) -> assertThat(step.name()).startsWith(step.kind().label()));
		assertThat(report.steps()).extracting((step) -> step.result().label())
			.containsExactly("ok", "ok", "ok", "ok", "ok", "failed", "ok", "ok");
	}

	@Test
	void aComponentWhoseBudgetRunsOutIsNamedInTheReportWithTheStacksOfItsThreads() throws InterruptedException {
		LifecycleManager manager = builder().build();
		CountDownLatch release = new CountDownLatch(1);
		Thread task = new Thread(() -> {
			try {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "accepted-task-1");
		task.start();
		try {
			manager.registerPassive("executor",
					ComponentOptions.defaults()
						.withTier(Tier.INFRASTRUCTURE)
						.withGracefulShutdown(Duration.ofMillis(200)),
					new PassiveComponent() {
						@Override
						public void stop(ComponentHandle handle) throws Exception {
							task.join();
						}

						@Override
						public java.util.Set<Thread> threads() {
							return java.util.Set.of(task);
						}
					});
			manager.start();

			manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
			ShutdownReport report = manager.awaitTermination();

			assertThat(report.clean()).isFalse();
			assertThat(report.component("executor")).map(ComponentReport::outcome).hasValue(Outcome.TIMEOUT);
			assertThat(report.diagnostics()).contains("component 'executor' did not stop within its graceful budget")
				.contains("thread \"accepted-task-1\"")
				.contains("CountDownLatch.await");
		}
		finally {
			release.countDown();
		}
	}

	@Test
	void requestsThatFailAfterTheTriggerAreCountedInTheReport() throws InterruptedException {
		LifecycleManager manager = builder().drainDelay(Duration.ofMillis(300)).build();
		manager.start();
		LifecycleHost.of(manager).recordFailedRequest();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		LifecycleHost.of(manager).recordFailedRequest();
		LifecycleHost.of(manager).recordFailedRequest();

		assertThat(manager.awaitTermination().failedRequests()).isEqualTo(2);
	}

	@Test
	void anInfrastructureComponentCannotBeFinite() {
		LifecycleManager manager = builder().build();
		org.assertj.core.api.Assertions
			.assertThatThrownBy(() -> manager.register("pool",
					ComponentOptions.defaults().withTier(Tier.INFRASTRUCTURE).withFinite(true)))
			.isInstanceOf(InvalidOptionException.class)
			.hasMessageContaining("finite");
	}

	@Test
	void ceilingDiagnosticsShowThePassiveStopThread() throws InterruptedException {
		LifecycleManager manager = builder().globalShutdownTimeout(Duration.ofMillis(300)).build();
		CountDownLatch never = new CountDownLatch(1);
		manager.registerPassive("slow-flush", ComponentOptions.defaults(), (handle) -> never.await());
		manager.start();

		LogCapture logs = LogCapture.start();
		try {
			manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
			assertThat(manager.awaitTermination().exitCode()).isEqualTo(ExitCodes.CEILING);
			assertThat(logs.messages()).anySatisfy((line) -> assertThat(line).contains("component 'slow-flush'")
				.contains("thread \"lifecycle-stop-slow-flush\" WAITING"));
		}
		finally {
			logs.stop();
			never.countDown();
		}
	}

	@Test
	void drainDelayKeepsComponentsRunningWhileReadinessIsDown() throws InterruptedException {
		LifecycleManager manager = builder().drainDelay(Duration.ofMillis(300)).build();
		ComponentHandle http = manager.registerPassive("http", ComponentOptions.defaults(), recording("http"));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		assertThat(manager.isReady()).isFalse();
		assertThat(http.isShuttingDown()).isFalse();
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(300));
		assertThat(this.events).containsExactly("stop http");
	}

	@Test
	void completionIsLoggedAndCountedOnce() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerPassive("http", ComponentOptions.defaults(), recording("http"));
		manager.start();
		LogCapture logs = LogCapture.start();
		try {
			manager.triggerShutdown(ShutdownReason.PRESTOP, "prestop");
			manager.awaitTermination();

			assertThat(logs.messages()).contains("Lifecycle: shutdown initiated (reason=prestop, component=prestop)");
			assertThat(logs.messages()).anySatisfy(
					(line) -> assertThat(line).startsWith("Lifecycle: shutdown complete (clean=true, exitCode=0"));
		}
		finally {
			logs.stop();
		}
		assertThat(this.metrics.initiated("prestop", ShutdownReason.PRESTOP)).isEqualTo(1);
		assertThat(this.metrics.completed(true)).isEqualTo(1);
		assertThat(this.metrics.results("http", Outcome.COMPLETED)).isEqualTo(1);
		assertThat(this.metrics.durations()).singleElement()
			.satisfies((d) -> assertThat(d.component()).isEqualTo("http"));
	}

	@Test
	void componentsStartInAscendingPhaseOrder() throws InterruptedException {
		LifecycleManager manager = builder().build();
		List<String> started = Collections.synchronizedList(new ArrayList<>());
		for (int phase : new int[] { 5, -3, 10, 0 }) {
			manager.registerPassive("p" + phase, ComponentOptions.defaults().withPhase(phase), new PassiveComponent() {
				@Override
				public void start(ComponentHandle handle) {
					started.add(handle.name());
				}

				@Override
				public void stop(ComponentHandle handle) {
				}
			});
		}
		manager.start();

		assertThat(started).containsExactly("p-3", "p0", "p5", "p10");
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		await().atMost(Duration.ofSeconds(10)).until(() -> manager.report().isPresent());
	}

}
