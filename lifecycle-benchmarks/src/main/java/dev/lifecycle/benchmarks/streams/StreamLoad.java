package dev.lifecycle.benchmarks.streams;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpResponse.BodySubscribers;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client of {@code stream-scale.sh}: many long-lived streams (server-sent events and
 * WebSockets) and an open-loop prober of ordinary requests, all through one address (a
 * proxy in front of several instances of the stream app), from one JVM that costs little
 * CPU: the JDK {@link HttpClient} and {@link WebSocket}, non-blocking (one selector
 * thread for the streams with a pool of two threads for their callbacks, and one client
 * with a selector, a timer and a callback thread of its own for the prober), no thread
 * per stream.
 *
 * <p>
 * Each logical client keeps one stream open for the whole run and opens a new one when it
 * ends: an SSE client resumes with {@code Last-Event-ID} (the last id it received) after
 * the reconnection time (the last {@code retry:} field received, else
 * {@code --reconnect-delay-ms}), as an {@code EventSource} does; a WebSocket client
 * reconnects after {@code --reconnect-delay-ms} whatever the close code. A stream that
 * never opened (refused, no answer within 15 s, or an answer other than 200/101) is
 * retried after {@code --refused-delay-ms} more. A stream that received nothing for
 * {@code --idle-timeout-ms} (5000; both kinds carry a message a second) is closed and
 * ends as stale, as a client's heartbeat timeout would end it. The clients start spread
 * over the first {@code n / --open-rate} seconds; the file {@code opened} appears once
 * every client has had a stream open. Every SSE and probe request says
 * {@code Connection: close}, so each stream and probe is a new connection that the proxy
 * balances (no connection pinned to an instance by a client pool).
 *
 * <p>
 * SSE ids are seconds, the same on every instance and consecutive: for each client an id
 * more than one above the last it received counts the ids between as lost, an id not
 * above it counts as delivered twice.
 *
 * <p>
 * The prober sends {@code GET --probe-path} at {@code --probe-rate} a second on a fixed
 * schedule whatever the answers (open loop); its latency runs from the scheduled instant
 * to the whole answer, so a stall of the client or the servers is counted, not omitted.
 *
 * <p>
 * Writes in {@code --out}: {@code streams.tsv} (one row per stream: kind client seq
 * start_ms open_ms end_ms instance end code events retry_ms; end is clean, broken, stale,
 * refused or open (still open at the stop); code the HTTP status, or the WebSocket close
 * code, 1006 (broken) when the connection closed without one), {@code probes.tsv}
 * (scheduled_ms latency_ms status instance; status the HTTP status or the exception's
 * class) and, at the stop, {@code summary.json} (the client's CPU, the events, lost and
 * twice, the counts of streams and probes, the failures by exception).
 *
 * <p>
 * Usage:
 * {@code StreamLoad --target=HOST:PORT --out=DIR --stop-file=PATH [--sse=1000] [--ws=1000]
 * [--open-rate=500] [--probe-rate=50] [--probe-path=/hello] [--reconnect-delay-ms=0]
 * [--refused-delay-ms=200] [--idle-timeout-ms=5000] [--max-seconds=3600]}. Run it with
 * {@code -Djava.util.concurrent.ForkJoinPool.common.parallelism=2} or more on a machine
 * of fewer than 3 cores: below 2 the JDK's HttpClient starts a thread for each of its
 * asynchronous completions.
 */
public final class StreamLoad {

	private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

	/**
	 * From a stream's connect to its response headers (SSE) or its handshake (WebSocket).
	 */
	private static final Duration OPEN_TIMEOUT = Duration.ofSeconds(15);

	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

	/** The WebSocket close code of a connection closed without a close frame. */
	private static final int ABNORMAL_CLOSURE = 1006;

	private final Map<String, String> options;

	private final String target;

	private final Path out;

	private final long reconnectDelayMs;

	private final long refusedDelayMs;

	private final long idleTimeoutMs;

	private final ExecutorService callbacks = Executors.newFixedThreadPool(2, daemon("stream-load-callbacks"));

	private final ScheduledExecutorService timer = Executors
		.newSingleThreadScheduledExecutor(daemon("stream-load-timer"));

	private final HttpClient client;

	/**
	 * The prober's own client, thread and timer: a burst of streams does not delay it in
	 * this JVM.
	 */
	private final HttpClient probeClient;

	private final ScheduledExecutorService probeTimer = Executors
		.newSingleThreadScheduledExecutor(daemon("stream-load-probe-timer"));

	private final ConcurrentLinkedQueue<String> streamRows = new ConcurrentLinkedQueue<>();

	private final ConcurrentLinkedQueue<String> probeRows = new ConcurrentLinkedQueue<>();

	private final Set<Stream> open = ConcurrentHashMap.newKeySet();

	private final AtomicInteger neverOpened = new AtomicInteger();

	private final CountDownLatch allOpened;

	private final AtomicLong events = new AtomicLong();

	private final AtomicLong lost = new AtomicLong();

	private final AtomicLong twice = new AtomicLong();

	private final AtomicLong retryFields = new AtomicLong();

	private final AtomicLong probesSent = new AtomicLong();

	private final AtomicLong probesAnswered = new AtomicLong();

	private final AtomicLong probesFailed = new AtomicLong();

	private final Map<String, AtomicLong> ends = new ConcurrentHashMap<>();

	private final Map<String, AtomicLong> failures = new ConcurrentHashMap<>();

	private volatile boolean stopping;

	private StreamLoad(Map<String, String> options) {
		this.options = options;
		this.target = required("target");
		this.out = Path.of(required("out"));
		this.reconnectDelayMs = number("reconnect-delay-ms", 0);
		this.refusedDelayMs = number("refused-delay-ms", 200);
		this.idleTimeoutMs = number("idle-timeout-ms", 5000);
		this.client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(CONNECT_TIMEOUT)
			.executor(this.callbacks)
			.build();
		this.probeClient = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(CONNECT_TIMEOUT)
			.executor(Executors.newSingleThreadExecutor(daemon("stream-load-probe-callbacks")))
			.build();
		this.allOpened = new CountDownLatch((int) (number("sse", 1000) + number("ws", 1000)));
	}

	public static void main(String[] args) throws Exception {
		// Each SSE stream and probe is its own connection (see the class comment).
		if (System.getProperty("jdk.httpclient.allowRestrictedHeaders") == null) {
			System.setProperty("jdk.httpclient.allowRestrictedHeaders", "connection");
		}
		Map<String, String> options = new HashMap<>();
		for (String arg : args) {
			if (!arg.startsWith("--") || !arg.contains("=")) {
				throw new IllegalArgumentException("expected --name=value, got " + arg);
			}
			options.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
		}
		new StreamLoad(options).run();
	}

	private void run() throws Exception {
		Files.createDirectories(this.out);
		Path stopFile = Path.of(required("stop-file"));
		long maxMs = number("max-seconds", 3600) * 1000;
		long started = System.currentTimeMillis();
		int sse = (int) number("sse", 1000);
		int ws = (int) number("ws", 1000);
		double openRate = Math.max(1, number("open-rate", 500));
		// SSE and WebSocket clients interleaved over the opening ramp.
		for (int i = 0, s = 0, w = 0; i < sse + ws; i++) {
			boolean isSse = (s < sse) && (w >= ws || i % 2 == 0);
			Client c = isSse ? new Client("sse", s++) : new Client("ws", w++);
			this.timer.schedule(() -> connect(c), (long) (i * 1000 / openRate), TimeUnit.MILLISECONDS);
		}
		startProber(number("probe-rate", 50), this.options.getOrDefault("probe-path", "/hello"));
		if (this.idleTimeoutMs > 0) {
			this.timer.scheduleWithFixedDelay(this::endIdleStreams, 1, 1, TimeUnit.SECONDS);
		}
		try (PrintWriter streams = writer("streams.tsv"); PrintWriter probes = writer("probes.tsv")) {
			boolean openedWritten = false;
			while (!Files.exists(stopFile) && System.currentTimeMillis() - started < maxMs) {
				Thread.sleep(200);
				drain(this.streamRows, streams);
				drain(this.probeRows, probes);
				if (!openedWritten && this.allOpened.getCount() == 0) {
					Files.writeString(this.out.resolve("opened"), System.currentTimeMillis() + "\n");
					openedWritten = true;
				}
			}
			this.stopping = true;
			this.timer.shutdownNow();
			this.probeTimer.shutdownNow();
			long now = System.currentTimeMillis();
			for (Stream stream : this.open) {
				stream.end("open", 0, now);
			}
			Thread.sleep(200);
			drain(this.streamRows, streams);
			drain(this.probeRows, probes);
		}
		writeSummary(System.currentTimeMillis() - started);
		System.exit(0);
	}

	// --- streams

	/** One logical client: a stream open at a time, reopened when it ends. */
	private final class Client {

		final String kind;

		final int id;

		int seq;

		/** SSE: the last id received (-1 before the first), sent as Last-Event-ID. */
		long lastId = -1;

		/** SSE: the reconnection time from the last {@code retry:} field, -1 if none. */
		long retryMs = -1;

		boolean everOpened;

		Client(String kind, int id) {
			this.kind = kind;
			this.id = id;
		}

		/** An SSE event's id: counts it, lost ids before it, or a repeat. */
		synchronized void onEvent(long eventId) {
			StreamLoad.this.events.incrementAndGet();
			if (this.lastId >= 0) {
				if (eventId <= this.lastId) {
					StreamLoad.this.twice.incrementAndGet();
					return;
				}
				if (eventId > this.lastId + 1) {
					StreamLoad.this.lost.addAndGet(eventId - this.lastId - 1);
				}
			}
			this.lastId = eventId;
		}

	}

	/** One stream of a client, from its connect to its end, written as one row. */
	private final class Stream {

		final Client client;

		final int seq;

		final long startMs = System.currentTimeMillis();

		volatile long openMs = -1;

		volatile String instance = "-";

		volatile int code;

		final AtomicLong received = new AtomicLong();

		/**
		 * When the stream last received anything (its open, an event line, a message).
		 */
		volatile long lastReceivedMs = System.currentTimeMillis();

		/** Closes the connection of a stream found idle. */
		volatile Runnable abort = () -> {
		};

		volatile long retryMs = -1;

		final AtomicBoolean ended = new AtomicBoolean();

		Stream(Client client) {
			this.client = client;
			this.seq = client.seq++;
		}

		void opened(String instance) {
			this.openMs = System.currentTimeMillis();
			this.lastReceivedMs = this.openMs;
			if (instance != null) {
				this.instance = instance;
			}
			StreamLoad.this.open.add(this);
			synchronized (this.client) {
				if (!this.client.everOpened) {
					this.client.everOpened = true;
					StreamLoad.this.allOpened.countDown();
				}
			}
		}

		/** Ends the stream once; a client whose stream ended opens the next one. */
		void end(String how, int code, long endMs) {
			if (!this.ended.compareAndSet(false, true)) {
				return;
			}
			StreamLoad.this.open.remove(this);
			String kind = (this.openMs < 0 && !"open".equals(how)) ? "refused" : how;
			StreamLoad.this.ends.computeIfAbsent(this.client.kind + " " + kind, (k) -> new AtomicLong())
				.incrementAndGet();
			StreamLoad.this.streamRows.add(String.join("\t", this.client.kind, Integer.toString(this.client.id),
					Integer.toString(this.seq), Long.toString(this.startMs), Long.toString(this.openMs),
					Long.toString(endMs), this.instance, kind, Integer.toString((code != 0) ? code : this.code),
					Long.toString(this.received.get()), Long.toString(this.retryMs)));
			if (StreamLoad.this.stopping) {
				return;
			}
			long delay;
			if ("refused".equals(kind)) {
				delay = StreamLoad.this.refusedDelayMs + Math.max(StreamLoad.this.reconnectDelayMs, 0);
			}
			else {
				delay = (this.client.retryMs >= 0) ? this.client.retryMs : StreamLoad.this.reconnectDelayMs;
			}
			try {
				StreamLoad.this.timer.schedule(() -> connect(this.client), delay, TimeUnit.MILLISECONDS);
			}
			catch (RuntimeException ex) {
				// Stopping: no more streams.
			}
		}

	}

	private void connect(Client c) {
		if (this.stopping) {
			return;
		}
		if (c.kind.equals("sse")) {
			connectSse(c);
		}
		else {
			connectWebSocket(c);
		}
	}

	private void connectSse(Client c) {
		Stream stream = new Stream(c);
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + this.target + "/sse"))
			.timeout(OPEN_TIMEOUT)
			.header("Accept", "text/event-stream")
			.header("Connection", "close");
		synchronized (c) {
			if (c.lastId >= 0) {
				request.header("Last-Event-ID", Long.toString(c.lastId));
			}
		}
		try {
			this.client.sendAsync(request.build(), (info) -> {
				stream.code = info.statusCode();
				if (info.statusCode() != 200) {
					return BodySubscribers.replacing(null);
				}
				stream.opened(info.headers().firstValue("X-Instance").orElse(null));
				return BodySubscribers.fromLineSubscriber(new SseParser(stream));
			}).whenComplete((response, failure) -> {
				long now = System.currentTimeMillis();
				if (failure != null) {
					failed("sse", failure);
					stream.end("broken", 0, now);
				}
				else {
					stream.end((response.statusCode() == 200) ? "clean" : "refused", response.statusCode(), now);
				}
			});
		}
		catch (RuntimeException ex) {
			stream.end("refused", 0, System.currentTimeMillis());
		}
	}

	/**
	 * The server-sent events format, line by line: an event is dispatched at its blank
	 * line (an event cut before it is not counted).
	 */
	private final class SseParser implements Flow.Subscriber<String> {

		private final Stream stream;

		private String id;

		SseParser(Stream stream) {
			this.stream = stream;
		}

		@Override
		public void onSubscribe(Flow.Subscription subscription) {
			this.stream.abort = subscription::cancel;
			subscription.request(Long.MAX_VALUE);
		}

		@Override
		public void onNext(String line) {
			this.stream.lastReceivedMs = System.currentTimeMillis();
			if (line.isEmpty()) {
				if (this.id != null) {
					this.stream.received.incrementAndGet();
					try {
						this.stream.client.onEvent(Long.parseLong(this.id));
					}
					catch (NumberFormatException ex) {
						// Not one of the app's ids.
					}
				}
				this.id = null;
				return;
			}
			int colon = line.indexOf(':');
			if (colon == 0) {
				return; // a comment
			}
			String field = (colon < 0) ? line : line.substring(0, colon);
			String value = (colon < 0) ? "" : line.substring(colon + 1);
			if (value.startsWith(" ")) {
				value = value.substring(1);
			}
			if (field.equals("id")) {
				this.id = value;
			}
			else if (field.equals("retry") && !value.isEmpty() && value.chars().allMatch(Character::isDigit)) {
				long retry = Long.parseLong(value);
				this.stream.retryMs = retry;
				synchronized (this.stream.client) {
					this.stream.client.retryMs = retry;
				}
				StreamLoad.this.retryFields.incrementAndGet();
			}
		}

		@Override
		public void onError(Throwable throwable) {
		}

		@Override
		public void onComplete() {
		}

	}

	private void connectWebSocket(Client c) {
		Stream stream = new Stream(c);
		try {
			this.client.newWebSocketBuilder()
				.connectTimeout(OPEN_TIMEOUT)
				.buildAsync(URI.create("ws://" + this.target + "/ws"), new WebSocket.Listener() {

					private final StringBuilder text = new StringBuilder();

					@Override
					public void onOpen(WebSocket webSocket) {
						stream.abort = webSocket::abort;
						stream.code = 101;
						stream.opened(null);
						webSocket.request(1);
					}

					@Override
					public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
						stream.lastReceivedMs = System.currentTimeMillis();
						this.text.append(data);
						if (last) {
							String message = this.text.toString();
							this.text.setLength(0);
							stream.received.incrementAndGet();
							if (message.startsWith("instance ")) {
								stream.instance = message.substring("instance ".length());
							}
						}
						webSocket.request(1);
						return null;
					}

					@Override
					public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
						// 1006 is never sent by a peer: the JDK reports a connection
						// closed without a close frame with it.
						stream.end((statusCode != ABNORMAL_CLOSURE) ? "clean" : "broken", statusCode,
								System.currentTimeMillis());
						return null; // the JDK replies with the same close code
					}

					@Override
					public void onError(WebSocket webSocket, Throwable error) {
						failed("ws", error);
						stream.end("broken", 0, System.currentTimeMillis());
					}

				})
				.whenComplete((webSocket, failure) -> {
					if (failure != null) {
						failed("ws", failure);
						stream.end("refused", 0, System.currentTimeMillis());
					}
				});
		}
		catch (RuntimeException ex) {
			stream.end("refused", 0, System.currentTimeMillis());
		}
	}

	/**
	 * Ends the streams that received nothing for {@code --idle-timeout-ms} (both kinds
	 * carry a message a second): as "stale", closing their connection, as a client's
	 * heartbeat timeout does. A connection whose server went away unseen (no close, no
	 * error reported) would otherwise stay open to the end of the run.
	 */
	private void endIdleStreams() {
		long now = System.currentTimeMillis();
		for (Stream stream : this.open) {
			if (now - stream.lastReceivedMs > this.idleTimeoutMs) {
				this.failures
					.computeIfAbsent(stream.client.kind + " idle for more than " + this.idleTimeoutMs + " ms",
							(k) -> new AtomicLong())
					.incrementAndGet();
				stream.end("stale", 0, now);
				try {
					stream.abort.run();
				}
				catch (RuntimeException ex) {
					// Closed meanwhile.
				}
			}
		}
	}

	/** Counts a stream's failure by its kind, exception and message (ids left out). */
	private void failed(String kind, Throwable failure) {
		Throwable cause = (failure.getCause() != null) ? failure.getCause() : failure;
		String message = String.valueOf(cause.getMessage())
			.replaceAll("[0-9]+", "N")
			.replace('"', '\'')
			.replace('\n', ' ');
		this.failures
			.computeIfAbsent(kind + " " + cause.getClass().getSimpleName() + ": " + message, (k) -> new AtomicLong())
			.incrementAndGet();
	}

	// --- the prober

	private void startProber(long rate, String path) {
		if (rate <= 0) {
			return;
		}
		long periodNanos = 1_000_000_000L / rate;
		long originMs = System.currentTimeMillis();
		long originNanos = System.nanoTime();
		AtomicLong n = new AtomicLong();
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + this.target + path))
			.timeout(PROBE_TIMEOUT)
			.header("Connection", "close")
			.build();
		// At a fixed rate: runs that fall behind are caught up at once (open loop).
		this.probeTimer.scheduleAtFixedRate(() -> {
			long k = n.getAndIncrement();
			long scheduledNanos = originNanos + k * periodNanos;
			long scheduledMs = originMs + (k * periodNanos) / 1_000_000;
			this.probesSent.incrementAndGet();
			this.probeClient.sendAsync(request, BodyHandlers.ofString()).whenComplete((response, failure) -> {
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

	// --- output

	private void writeSummary(long wallMs) throws IOException {
		double cpuS = processCpuNanos() / 1e9;
		Map<String, Object> summary = new TreeMap<>();
		summary.put("wall_s", wallMs / 1000.0);
		summary.put("cpu_s", cpuS);
		summary.put("cpu_cores", (wallMs > 0) ? cpuS / (wallMs / 1000.0) : 0);
		summary.put("threads_peak", ManagementFactory.getThreadMXBean().getPeakThreadCount());
		summary.put("events", this.events.get());
		summary.put("lost", this.lost.get());
		summary.put("twice", this.twice.get());
		summary.put("retry_fields", this.retryFields.get());
		summary.put("never_opened", this.allOpened.getCount());
		summary.put("probes_sent", this.probesSent.get());
		summary.put("probes_answered", this.probesAnswered.get());
		summary.put("probes_failed", this.probesFailed.get());
		StringBuilder json = new StringBuilder("{");
		summary.forEach((k, v) -> json.append('"').append(k).append("\":").append(v).append(','));
		json.append("\"ends\":{");
		new TreeMap<>(this.ends)
			.forEach((k, v) -> json.append('"').append(k).append("\":").append(v.get()).append(','));
		if (json.charAt(json.length() - 1) == ',') {
			json.setLength(json.length() - 1);
		}
		json.append("},\"failures\":{");
		new TreeMap<>(this.failures)
			.forEach((k, v) -> json.append('"').append(k).append("\":").append(v.get()).append(','));
		if (json.charAt(json.length() - 1) == ',') {
			json.setLength(json.length() - 1);
		}
		json.append("}}\n");
		Files.writeString(this.out.resolve("summary.json"), json.toString());
	}

	private static long processCpuNanos() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return -1;
	}

	private PrintWriter writer(String name) {
		try {
			return new PrintWriter(Files.newBufferedWriter(this.out.resolve(name), StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void drain(ConcurrentLinkedQueue<String> rows, PrintWriter writer) {
		for (String row; (row = rows.poll()) != null;) {
			writer.println(row);
		}
		writer.flush();
	}

	private String required(String name) {
		String value = this.options.get(name);
		if (value == null) {
			throw new IllegalArgumentException("--" + name + "= is required");
		}
		return value;
	}

	private long number(String name, long fallback) {
		String value = this.options.get(name);
		return (value != null) ? Long.parseLong(value) : fallback;
	}

	private static ThreadFactory daemon(String name) {
		AtomicInteger n = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, name + "-" + n.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
