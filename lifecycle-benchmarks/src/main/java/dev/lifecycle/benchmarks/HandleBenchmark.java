package dev.lifecycle.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.LifecycleManager;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The handle's hot-path methods against bare volatile accesses.
 *
 * <p>
 * Targets (issue 3, item 5): {@code isShuttingDown} and {@code isHealthy} within 1.5x a
 * bare volatile read; {@code reportHealthy} within 3x a bare volatile write and 0 B/op.
 * Run with {@code -t 1} and {@code -t 2} and {@code -prof gc}; see {@code run-jmh.sh}.
 *
 * <p>
 * Hygiene: every read returns its value (JMH sinks it into a Blackhole); every flag is a
 * non-final volatile field on a {@code @State} object or on the handle, so nothing can be
 * constant-folded or hoisted out of the measurement loop; void methods are volatile
 * accesses, which the JIT does not eliminate.
 *
 * <p>
 * Sharing: the handle benchmarks use one handle shared by all benchmark threads (the
 * realistic case: the worker threads of one component share its handle). The read
 * baseline is shared too (nobody writes it, so each core reads its own copy of the line,
 * like the handle's flags). The write baseline comes in two forms: per thread
 * (uncontended; the strict baseline used for the target) and shared (two threads writing
 * one cache line, shown for scale).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HandleBenchmark {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	/**
	 * One manager that is never started (no monitor thread), one monitored handle, one
	 * baseline flag.
	 */
	@State(Scope.Benchmark)
	public static class Shared {

		/** Baseline for reads, and for shared writes. */
		volatile boolean flag;

		LifecycleManager manager;

		ComponentHandle handle;

		@Setup(Level.Trial)
		public void setUp() {
			this.manager = LifecycleManager.builder("bench-handle").build();
			this.handle = this.manager.register("worker", ComponentOptions.defaults().withLivenessDeadline(DEADLINE));
			// Steady state of a busy component: a heartbeat is already pending, the
			// monitor has not polled yet (this manager is never started, so nothing
			// clears it).
			this.handle.reportHealthy();
		}

		@TearDown(Level.Trial)
		public void check() {
			if (this.manager.isShutdownInitiated() || this.handle.isShuttingDown() || !this.handle.isHealthy()) {
				throw new IllegalStateException("benchmark invalid: the handle left its steady state");
			}
		}

	}

	/** A per-thread flag: the uncontended volatile write baseline. */
	@State(Scope.Thread)
	public static class PerThread {

		volatile boolean flag;

	}

	/**
	 * A started manager whose real health monitor polls every 10 ms, the shortest
	 * interval the engine accepts (500x more often than the 5 s default), clearing the
	 * handle's pending heartbeat, so {@code reportHealthy} has to write again after every
	 * poll and pulls the cache line back from the monitor's core.
	 */
	@State(Scope.Benchmark)
	public static class WithMonitor {

		LifecycleManager manager;

		ComponentHandle handle;

		@Setup(Level.Trial)
		public void setUp() {
			this.manager = LifecycleManager.builder("bench-monitor").healthPollInterval(Duration.ofMillis(10)).build();
			this.handle = this.manager.register("worker", ComponentOptions.defaults().withLivenessDeadline(DEADLINE));
			this.manager.start();
			this.handle.reportHealthy();
		}

		@TearDown(Level.Trial)
		public void check() {
			if (this.manager.isShutdownInitiated() || !this.handle.isHealthy()) {
				throw new IllegalStateException("benchmark invalid: the monitored component stalled or shut down");
			}
		}

	}

	// ---- baselines
	// -----------------------------------------------------------------------------

	@Benchmark
	public boolean baselineVolatileRead(Shared s) {
		return s.flag;
	}

	@Benchmark
	public void baselineVolatileWrite(PerThread t) {
		t.flag = true;
	}

	@Benchmark
	public void baselineVolatileWriteShared(Shared s) {
		s.flag = true;
	}

	// ---- the handle
	// ----------------------------------------------------------------------------

	@Benchmark
	public boolean isShuttingDown(Shared s) {
		return s.handle.isShuttingDown();
	}

	@Benchmark
	public boolean isHealthy(Shared s) {
		return s.handle.isHealthy();
	}

	/**
	 * Steady state: the heartbeat is already pending, so the call is one volatile read.
	 */
	@Benchmark
	public void reportHealthy(Shared s) {
		s.handle.reportHealthy();
	}

	/** With the real monitor clearing the pending flag every 10 ms. */
	@Benchmark
	public void reportHealthyWithMonitor(WithMonitor m) {
		m.handle.reportHealthy();
	}

}
