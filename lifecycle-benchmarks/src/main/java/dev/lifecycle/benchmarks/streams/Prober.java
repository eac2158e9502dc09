package dev.lifecycle.benchmarks.streams;

import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link StreamLoad}'s open-loop prober: ordinary requests on a fixed schedule whatever
 * the answers, each latency counted from its scheduled instant, with a client, a thread
 * and a timer of its own so that a burst of streams does not delay it.
 */
final class Prober {

	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

	private final HttpClient client;

	private final ScheduledExecutorService timer = Executors
		.newSingleThreadScheduledExecutor(StreamLoad.daemon("stream-load-probe-timer"));

	private final ConcurrentLinkedQueue<String> probeRows = new ConcurrentLinkedQueue<>();

	private final AtomicLong probesSent = new AtomicLong();

	private final AtomicLong probesAnswered = new AtomicLong();

	private final AtomicLong probesFailed = new AtomicLong();

	Prober(Duration connectTimeout) {
		this.client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(connectTimeout)
			.executor(Executors.newSingleThreadExecutor(StreamLoad.daemon("stream-load-probe-callbacks")))
			.build();
	}

	void start(String target, long rate, String path) {
		if (rate <= 0) {
			return;
		}
		long periodNanos = 1_000_000_000L / rate;
		long originMs = System.currentTimeMillis();
		long originNanos = System.nanoTime();
		AtomicLong n = new AtomicLong();
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + target + path))
			.timeout(PROBE_TIMEOUT)
			.header("Connection", "close")
			.build();
		// At a fixed rate: runs that fall behind are caught up at once (open loop).
		this.timer.scheduleAtFixedRate(() -> {
			long k = n.getAndIncrement();
			long scheduledNanos = originNanos + k * periodNanos;
			long scheduledMs = originMs + (k * periodNanos) / 1_000_000;
			this.probesSent.incrementAndGet();
			this.client.sendAsync(request, BodyHandlers.ofString()).whenComplete((response, failure) -> {
				double latencyMs = (System.nanoTime() - scheduledNanos) / 1e6;
				String status;
				String instance = "-";
				if (failure != null) {
					Throwable cause = (failure.getCause() != null) ? failure.getCause() : failure;
					status = cause.getClass().getSimpleName();
					this.probesFailed.incrementAndGet();
				}
				else {
					status = Integer.toString(response.statusCode());
					instance = response.headers().firstValue("X-Instance").orElse("-");
					if (response.statusCode() == 200) {
						this.probesAnswered.incrementAndGet();
					}
					else {
						this.probesFailed.incrementAndGet();
					}
				}
				this.probeRows
					.add(String.format(Locale.ROOT, "%d\t%.2f\t%s\t%s", scheduledMs, latencyMs, status, instance));
			});
		}, 0, periodNanos, TimeUnit.NANOSECONDS);
	}

	/** Writes the rows of the probes answered since the last call. */
	void drainTo(PrintWriter writer) {
		StreamLoad.drain(this.probeRows, writer);
	}

	void stop() {
		this.timer.shutdownNow();
	}

	/** Adds the probes' counts to the run's summary. */
	void summarise(Map<String, Object> summary) {
		summary.put("probes_sent", this.probesSent.get());
		summary.put("probes_answered", this.probesAnswered.get());
		summary.put("probes_failed", this.probesFailed.get());
	}

}
