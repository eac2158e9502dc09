package dev.lifecycle.sample.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Concurrent clients posting events with unique ids (each event its own key, so that
 * "counted exactly once" is checkable per event), recording on the client side every
 * event acknowledged with 202. Every tenth event is sent twice, as a client retrying
 * after a lost response would; the repeat must be acknowledged with the same offset and
 * {@code "duplicate": true}.
 */
final class LoadGenerator implements AutoCloseable {

	private static final Pattern OFFSET = Pattern.compile("\"offset\"\\s*:\\s*(\\d+)");

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(2))
		.build();

	private final URI uri;

	private final String prefix;

	private final Map<String, Ack> acked = new ConcurrentHashMap<>();

	private final List<String> violations = new ArrayList<>();

	private final AtomicLong refused = new AtomicLong();

	private final AtomicLong failed = new AtomicLong();

	private final AtomicLong other = new AtomicLong();

	private final List<Thread> workers = new ArrayList<>();

	private volatile boolean stopped;

	/**
	 * An acknowledged event.
	 *
	 * @param offset the offset in the 202
	 * @param value the value sent
	 */
	record Ack(long offset, long value) {
	}

	LoadGenerator(URI eventsUri, String prefix) {
		this.uri = eventsUri;
		this.prefix = prefix;
	}

	LoadGenerator start(int threads) {
		for (int w = 0; w < threads; w++) {
			int worker = w;
			Thread thread = new Thread(() -> work(worker), "load-" + w);
			thread.setDaemon(true);
			this.workers.add(thread);
			thread.start();
		}
		return this;
	}

	private void work(int worker) {
		long seq = 0;
		while (!this.stopped) {
			seq++;
			String id = this.prefix + "-" + worker + "-" + seq;
			long value = ThreadLocalRandom.current().nextLong(1, 101);
			String body = "{\"id\":\"" + id + "\",\"key\":\"" + id + "\",\"value\":" + value + "}";
			Long offset = send(body);
			if (offset == null) {
				continue;
			}
			this.acked.put(id, new Ack(offset, value));
			if (seq % 10 == 0) {
				Long again = send(body);
				if (again != null && again.longValue() != offset.longValue()) {
					synchronized (this.violations) {
						this.violations.add(id + " acknowledged at offset " + offset + " and again at " + again);
					}
				}
			}
		}
	}

	/** Posts; returns the acknowledged offset, or null if not acknowledged. */
	private Long send(String body) {
		HttpRequest request = HttpRequest.newBuilder(this.uri)
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		try {
			HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() == 202) {
				Matcher matcher = OFFSET.matcher(response.body());
				if (matcher.find()) {
					return Long.parseLong(matcher.group(1));
				}
				this.other.incrementAndGet();
				return null;
			}
			if (response.statusCode() == 503) {
				this.refused.incrementAndGet();
			}
			else {
				this.other.incrementAndGet();
			}
		}
		catch (IOException ex) {
			this.failed.incrementAndGet();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.stopped = true;
			return null;
		}
		pause();
		return null;
	}

	private static void pause() {
		try {
			Thread.sleep(20);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	int ackedCount() {
		return this.acked.size();
	}

	Map<String, Ack> acked() {
		return Map.copyOf(this.acked);
	}

	List<String> violations() {
		synchronized (this.violations) {
			return List.copyOf(this.violations);
		}
	}

	long refused() {
		return this.refused.get();
	}

	String summary() {
		return "acked=" + this.acked.size() + ", refused(503)=" + this.refused + ", failed(io)=" + this.failed
				+ ", other=" + this.other;
	}

	/** Stops the workers and waits for them. */
	LoadGenerator stop() throws InterruptedException {
		this.stopped = true;
		for (Thread worker : this.workers) {
			worker.join(15_000);
		}
		return this;
	}

	@Override
	public void close() throws InterruptedException {
		stop();
	}

}
