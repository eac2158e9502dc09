package dev.lifecycle.benchmarks.streams;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** What {@link StreamLoad} writes, and the daemon threads it runs on. */
final class LoadFiles {

	private LoadFiles() {
	}

	/**
	 * Writes {@code summary.json}: the client's wall and CPU time and its threads' peak,
	 * the summary's figures, and the ends and failures by kind.
	 */
	static void writeSummary(Path out, long wallMs, Map<String, Object> figures, Map<String, AtomicLong> ends,
			Map<String, AtomicLong> failures) throws IOException {
		double cpuS = processCpuNanos() / 1e9;
		Map<String, Object> summary = new TreeMap<>(figures);
		summary.put("wall_s", wallMs / 1000.0);
		summary.put("cpu_s", cpuS);
		summary.put("cpu_cores", (wallMs > 0) ? cpuS / (wallMs / 1000.0) : 0);
		summary.put("threads_peak", ManagementFactory.getThreadMXBean().getPeakThreadCount());
		StringBuilder json = new StringBuilder("{");
		summary.forEach((k, v) -> json.append('"').append(k).append("\":").append(v).append(','));
		json.append("\"ends\":");
		counts(json, ends);
		json.append(",\"failures\":");
		counts(json, failures);
		json.append("}\n");
		Files.writeString(out.resolve("summary.json"), json.toString());
	}

	private static void counts(StringBuilder json, Map<String, AtomicLong> counts) {
		json.append('{');
		new TreeMap<>(counts).forEach((k, v) -> json.append('"').append(k).append("\":").append(v.get()).append(','));
		if (json.charAt(json.length() - 1) == ',') {
			json.setLength(json.length() - 1);
		}
		json.append('}');
	}

	private static long processCpuNanos() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return -1;
	}

	static PrintWriter writer(Path file) {
		try {
			return new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Writes and flushes the rows queued since the last call. */
	static void drain(ConcurrentLinkedQueue<String> rows, PrintWriter writer) {
		for (String row; (row = rows.poll()) != null;) {
			writer.println(row);
		}
		writer.flush();
	}

	static ThreadFactory daemon(String name) {
		AtomicInteger n = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, name + "-" + n.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
