package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A component that fails, stalls or throws is settled {@code died} at that instant: the
 * shutdown never waits for it and ends with exit code 1 long before the ceiling. Named
 * after the reference crate's scenarios.
 */
class SettlementTest {

	/**
	 * Far above every wait below, so reaching it would fail the "well before the ceiling"
	 * checks.
	 */
	private static final Duration CEILING = Duration.ofSeconds(20);

	private static final Duration WELL_BEFORE_CEILING = Duration.ofSeconds(5);

	private final CountDownLatch stuck = new CountDownLatch(1);

	@AfterEach
	void releaseStuckThreads() {
		this.stuck.countDown();
	}

	private LifecycleManager.Builder builder() {
		return LifecycleManager.builder("svc").globalShutdownTimeout(CEILING);
	}

	/** Opens the component's process scope on a thread that then never returns. */
	private void runStuck(ComponentHandle handle) {
		CountDownLatch inside = new CountDownLatch(1);
		Thread thread = new Thread(() -> {
			try (var scope = handle.processScope()) {
				inside.countDown();
				this.stuck.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "stuck-" + handle.name());
		thread.setDaemon(true);
		thread.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> inside.getCount() == 0);
	}

	private static ShutdownReport reportWellBeforeTheCeiling(LifecycleManager manager) throws InterruptedException {
		return manager.awaitTermination(WELL_BEFORE_CEILING)
			.orElseThrow(() -> new AssertionError("no report within " + WELL_BEFORE_CEILING));
	}

	private static Outcome outcome(ShutdownReport report, String component) {
		return report.component(component).orElseThrow().outcome();
	}

	@Test
	void signalFailureOfAStuckComponentSettlesItDiedAtOnceWithExitCodeOne() throws InterruptedException {
		LifecycleManager manager = builder().build();
		ComponentHandle worker = manager.register("worker", ComponentOptions.defaults());
		manager.start();
		runStuck(worker);

		worker.signalFailure("boom");

		ShutdownReport report = reportWellBeforeTheCeiling(manager);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(report.ceilingFired()).isFalse();
		assertThat(outcome(report, "worker")).isEqualTo(Outcome.DIED);
		assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.FAILURE, "worker", "boom"));
	}

	@Test
	void stallTriggersShutdownAndSettlesTheStalledComponentDied() throws InterruptedException {
		LifecycleManager manager = builder().healthPollInterval(Duration.ofMillis(100)).build();
		ComponentHandle worker = manager.register("worker",
				ComponentOptions.defaults().withLivenessDeadline(Duration.ofMillis(300)));
		ComponentHandle other = manager.register("other", ComponentOptions.defaults());
		manager.start();
		runStuck(worker);
		runStuck(other);
		other.onShutdown(() -> other.processScope().close());
		worker.reportHealthy();

		ShutdownReport report = reportWellBeforeTheCeiling(manager);

		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.STALLED);
		assertThat(report.trigger().component()).isEqualTo("worker");
		assertThat(report.trigger().detail()).startsWith("no heartbeat for ");
		assertThat(outcome(report, "worker")).isEqualTo(Outcome.DIED);
		assertThat(outcome(report, "other")).isEqualTo(Outcome.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
	}

	@Test
	void stallThresholdExceededTriggersShutdownOnlyAfterThatManyStalledPolls() throws InterruptedException {
		FakeTicker ticker = new FakeTicker();
		LifecycleManager manager = builder().ticker(ticker).manualHealthPolling().build();
		ComponentHandle worker = manager.register("worker",
				ComponentOptions.defaults().withLivenessDeadline(Duration.ofSeconds(1)).withStallThreshold(3));
		manager.start();
		runStuck(worker);
		worker.reportHealthy();

		for (int poll = 1; poll <= 2; poll++) {
			ticker.advance(Duration.ofSeconds(2));
			manager.pollHealth();
			assertThat(manager.isShutdownInitiated()).isFalse();
		}
		ticker.advance(Duration.ofSeconds(2));
		manager.pollHealth();

		ShutdownReport report = reportWellBeforeTheCeiling(manager);
		assertThat(report.trigger().detail()).endsWith("3 consecutive stalled check(s))");
		assertThat(outcome(report, "worker")).isEqualTo(Outcome.DIED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
	}

	@Test
	void reportUnhealthyTriggersStallAndHoldsUntilTheNextHeartbeat() throws InterruptedException {
		FakeTicker ticker = new FakeTicker();
		LifecycleManager manager = builder().ticker(ticker).manualHealthPolling().build();
		ComponentHandle worker = manager.register("worker",
				ComponentOptions.defaults().withLivenessDeadline(Duration.ofSeconds(10)).withStallThreshold(2));
		manager.start();
		runStuck(worker);

		worker.reportUnhealthy();
		ticker.advance(Duration.ofSeconds(1));
		manager.pollHealth();
		assertThat(manager.isShutdownInitiated()).isFalse();
		ticker.advance(Duration.ofSeconds(1));
		manager.pollHealth();

		ShutdownReport report = reportWellBeforeTheCeiling(manager);
		assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.STALLED, "worker",
				"reported unhealthy (liveness deadline PT10S, 2 consecutive stalled check(s))"));
		assertThat(outcome(report, "worker")).isEqualTo(Outcome.DIED);
	}

	@Test
	void aHeartbeatEndsAnUnhealthyReport() throws InterruptedException {
		FakeTicker ticker = new FakeTicker();
		LifecycleManager manager = builder().ticker(ticker).manualHealthPolling().build();
		ComponentHandle worker = manager.register("worker",
				ComponentOptions.defaults().withLivenessDeadline(Duration.ofSeconds(10)).withStallThreshold(2));
		manager.start();

		worker.reportUnhealthy();
		ticker.advance(Duration.ofSeconds(1));
		manager.pollHealth();
		worker.reportHealthy();
		for (int poll = 0; poll < 3; poll++) {
			ticker.advance(Duration.ofSeconds(1));
			manager.pollHealth();
		}

		assertThat(manager.isShutdownInitiated()).isFalse();
		assertThat(worker.isHealthy()).isTrue();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
		worker.processScope().close();
		assertThat(reportWellBeforeTheCeiling(manager).exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void aStallIsFoundNoLaterThanOnePollIntervalAfterTheDeadline() {
		FakeTicker ticker = new FakeTicker();
		LifecycleManager manager = builder().ticker(ticker).manualHealthPolling().build();
		ComponentHandle worker = manager.register("worker",
				ComponentOptions.defaults().withLivenessDeadline(Duration.ofSeconds(4)));
		manager.start();
		Duration poll = Duration.ofSeconds(1);
		ticker.advance(Duration.ofMillis(300));
		manager.pollHealth();

		// The last heartbeat lands just after a poll, the worst case for the monitor.
		ticker.advance(Duration.ofMillis(10));
		worker.reportHealthy();
		Duration sinceHeartbeat = Duration.ZERO;
		while (!manager.isShutdownInitiated()) {
			ticker.advance(poll);
			sinceHeartbeat = sinceHeartbeat.plus(poll);
			manager.pollHealth();
			assertThat(sinceHeartbeat).isLessThanOrEqualTo(Duration.ofSeconds(4).plus(poll));
		}
		assertThat(sinceHeartbeat).isGreaterThanOrEqualTo(Duration.ofSeconds(4));
	}

	@Test
	void failureDuringDrainResolvesComponentWithoutGlobalTimeout() throws InterruptedException {
		LifecycleManager manager = builder().build();
		CountDownLatch stopping = new CountDownLatch(1);
		ComponentHandle worker = manager.registerPassive("worker", ComponentOptions.defaults().withPhase(1),
				(handle) -> {
					stopping.countDown();
					SettlementTest.this.stuck.await();
				});
		manager.registerPassive("store", ComponentOptions.defaults(), (handle) -> {
		});
		manager.start();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		await().atMost(Duration.ofSeconds(5)).until(() -> stopping.getCount() == 0);

		worker.signalFailure("lost its broker connection while draining");

		ShutdownReport report = reportWellBeforeTheCeiling(manager);
		assertThat(outcome(report, "worker")).isEqualTo(Outcome.DIED);
		assertThat(outcome(report, "store")).isEqualTo(Outcome.COMPLETED);
		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.SIGNAL);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
	}

	@Test
	void signalFailureDuringShutdownMarksDiedAndALaterEndChangesNothing() throws InterruptedException {
		LifecycleManager manager = builder().drainDelay(Duration.ofMillis(300)).build();
		ComponentHandle worker = manager.register("worker", ComponentOptions.defaults());
		List<ComponentReport> ended = new java.util.concurrent.CopyOnWriteArrayList<>();
		manager.addListener(new LifecycleListener() {
			@Override
			public void onComponentEnded(ComponentReport report) {
				ended.add(report);
			}
		});
		manager.start();
		var scope = worker.processScope();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");

		worker.signalFailure("boom during the drain delay");
		assertThat(manager.components().get(0).state()).isEqualTo(ComponentState.DIED);
		scope.close();

		ShutdownReport report = reportWellBeforeTheCeiling(manager);
		assertThat(outcome(report, "worker")).isEqualTo(Outcome.DIED);
		assertThat(ended).singleElement().extracting(ComponentReport::outcome).isEqualTo(Outcome.DIED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
	}

	@Test
	void aStopThatThrowsIsDiedWithoutWaitingForItsBudget() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerPassive("client", ComponentOptions.defaults().withGracefulShutdown(Duration.ofSeconds(30)),
				(handle) -> {
					throw new IllegalStateException("cannot close");
				});
		manager.start();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");

		ShutdownReport report = reportWellBeforeTheCeiling(manager);
		assertThat(outcome(report, "client")).isEqualTo(Outcome.DIED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
	}

	@Test
	void anEndedComponentIsNeverJudgedStalledAfterwards() throws InterruptedException {
		FakeTicker ticker = new FakeTicker();
		LifecycleManager manager = builder().ticker(ticker).manualHealthPolling().build();
		ComponentHandle batch = manager.register("batch",
				ComponentOptions.defaults().withLivenessDeadline(Duration.ofSeconds(1)).withPhase(5));
		ComponentHandle slow = manager.register("slow", ComponentOptions.defaults());
		manager.start();
		batch.reportHealthy();
		var slowScope = slow.processScope();
		var batchScope = batch.processScope();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		batchScope.close();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> manager.components().get(0).state() == ComponentState.COMPLETED);

		for (int poll = 0; poll < 5; poll++) {
			ticker.advance(Duration.ofSeconds(5));
			manager.pollHealth();
		}
		slowScope.close();

		ShutdownReport report = reportWellBeforeTheCeiling(manager);
		assertThat(manager.components().get(0).state()).isEqualTo(ComponentState.COMPLETED);
		assertThat(manager.components().get(0).healthStatus()).isNotEqualTo(HealthStatus.STALLED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void finiteWorkThatEndsWithoutAFiniteDeclarationSaysHowToGetAnAutomaticExit() {
		LifecycleManager manager = builder().build();
		ComponentHandle importer = manager.register("importer", ComponentOptions.defaults());
		manager.start();
		LogCapture logs = LogCapture.start();
		try {
			try (var scope = importer.processScope()) {
				importer.workCompleted();
			}

			assertThat(manager.isShutdownInitiated()).isFalse();
			assertThat(manager.components().get(0).state()).isEqualTo(ComponentState.COMPLETED);
			assertThat(logs.messages())
				.anySatisfy((line) -> assertThat(line).contains("component 'importer' completed its work and ended")
					.contains("no component is declared finite")
					.contains("ComponentOptions.withFinite(true)"));
		}
		finally {
			logs.stop();
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
		}
	}

	@Test
	void callersCannotClaimTheEnginesOwnVerdicts() {
		LifecycleManager manager = builder().build();
		for (ShutdownReason reason : Set.of(ShutdownReason.STALLED, ShutdownReason.DIED, ShutdownReason.COMPLETED)) {
			assertThatIllegalArgumentException().isThrownBy(() -> manager.triggerShutdown(reason, "outsider"))
				.withMessageContaining("engine's own verdict");
		}
		assertThat(manager.isShutdownInitiated()).isFalse();
	}

	@Test
	void everyEngineThreadComesFromTheInjectedFactory() throws InterruptedException {
		Set<String> made = ConcurrentHashMap.newKeySet();
		AtomicInteger count = new AtomicInteger();
		LifecycleManager manager = builder().healthPollInterval(Duration.ofMillis(50)).threadFactory((task) -> {
			count.incrementAndGet();
			Thread thread = new Thread(() -> {
				made.add(Thread.currentThread().getName());
				task.run();
			});
			thread.setDaemon(true);
			return thread;
		}).build();
		manager.registerActive("loop", ComponentOptions.defaults().withLivenessDeadline(Duration.ofSeconds(5)),
				(handle) -> {
					while (!handle.isShuttingDown()) {
						handle.reportHealthy();
						handle.awaitShutdown(Duration.ofMillis(20));
					}
				});
		manager.registerPassive("client", ComponentOptions.defaults(), (handle) -> {
		});
		manager.addShutdownHandler("checkpoint", Duration.ofSeconds(5), () -> {
		});
		manager.start();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		reportWellBeforeTheCeiling(manager);

		assertThat(made).contains("lifecycle-loop", "lifecycle-shutdown", "lifecycle-handler-checkpoint",
				"lifecycle-monitor");
		assertThat(count.get()).isGreaterThanOrEqualTo(made.size());
	}

}
