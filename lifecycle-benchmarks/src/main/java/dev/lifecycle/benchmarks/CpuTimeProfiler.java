package dev.lifecycle.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * The benchmark JVM's CPU time per operation ({@code cpu.time.norm}, ns/op): the CPU time
 * the process used over an iteration, every thread of it (the benchmark's, the garbage
 * collector's, the compiler's if it still works), divided by the operations of the
 * iteration. Unlike the score (wall-clock time), it does not grow while the thread waits
 * for a core another process holds, so it is the steadier figure on a shared machine;
 * like request-cost.sh's CPU per request, it counts the collection of what the operation
 * allocated. Use: {@code -prof dev.lifecycle.benchmarks.CpuTimeProfiler}.
 */
public class CpuTimeProfiler implements InternalProfiler {

	private final com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
		.getOperatingSystemMXBean();

	private long start;

	@Override
	public String getDescription() {
		return "CPU time of the benchmark JVM per operation";
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
		this.start = this.os.getProcessCpuTime();
	}

	@Override
	public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
			IterationResult result) {
		long cpu = this.os.getProcessCpuTime() - this.start;
		long ops = result.getMetadata().getMeasuredOps();
		if (ops <= 0 || cpu < 0) {
			return List.of();
		}
		return List.of(new ScalarResult("cpu.time.norm", (double) cpu / ops, "ns/op", AggregationPolicy.AVG));
	}

}
