package dev.lifecycle.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One health-monitor cycle ({@link LifecycleManager#pollHealth()}) over 10,000 monitored
 * components. Target (issue 3, item 5): under 1 ms.
 *
 * <p>
 * This class lives in {@code dev.lifecycle.core} (a split package on the plain classpath)
 * only to reach the package-private {@code pollHealth()} and
 * {@code Builder.manualHealthPolling()}; the manager is otherwise built and driven
 * through its public API, with the system ticker.
 *
 * <p>
 * Two cases: {@link #pollCycleIdle} — every component reported before and is within its
 * deadline, no heartbeat arrived since the last poll (the cheapest path, and the common
 * one when components beat less often than the monitor polls);
 * {@link #pollCycleAllHeartbeatsPending} — every component reported healthy since the
 * last poll (the most work per component: each pending flag is cleared and the timestamp
 * published). No shutdown may happen: each iteration checks it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
public class HealthPollBenchmark {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	@State(Scope.Benchmark)
	public abstract static class Fleet {

		@Param("10000")
		int components;

		LifecycleManager manager;

		ComponentHandle[] handles;

		@Setup(Level.Trial)
		public void build() {
			this.manager = LifecycleManager.builder("bench").manualHealthPolling().build();
			this.handles = new ComponentHandle[this.components];
			ComponentOptions options = ComponentOptions.defaults().withLivenessDeadline(DEADLINE);
			for (int i = 0; i < this.components; i++) {
				this.handles[i] = this.manager.register("component-" + i, options);
			}
			this.manager.start();
			beatAll();
			this.manager.pollHealth();
			verify();
		}

		void beatAll() {
			for (ComponentHandle handle : this.handles) {
				handle.reportHealthy();
			}
		}

		void verify() {
			if (this.manager.isShutdownInitiated()) {
				throw new IllegalStateException(
						"benchmark invalid: a shutdown was triggered " + this.manager.trigger().orElse(null));
			}
			for (ComponentView view : this.manager.components()) {
				if (view.healthStatus() != HealthStatus.HEALTHY) {
					throw new IllegalStateException("benchmark invalid: " + view.name() + " is " + view.healthStatus());
				}
			}
		}

		@TearDown(Level.Iteration)
		public void checkStillHealthy() {
			verify();
		}

	}

	/**
	 * Fresh heartbeats before each iteration (one unmeasured poll absorbs them), none
	 * during it.
	 */
	public static class Idle extends Fleet {

		@Setup(Level.Iteration)
		public void refresh() {
			beatAll();
			this.manager.pollHealth();
		}

	}

	/**
	 * Every component has a heartbeat pending before each measured poll (re-armed,
	 * unmeasured).
	 */
	public static class Beating extends Fleet {

		@Setup(Level.Invocation)
		public void rearm() {
			beatAll();
		}

	}

	@Benchmark
	public void pollCycleIdle(Idle fleet) {
		fleet.manager.pollHealth();
	}

	@Benchmark
	public void pollCycleAllHeartbeatsPending(Beating fleet) {
		fleet.manager.pollHealth();
	}

}
