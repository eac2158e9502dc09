package dev.lifecycle.benchmarks.streams;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodySubscribers;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client of {@code stream-scale.sh}: many long-lived streams and an open-loop prober
 * through one address, from one JVM that costs little CPU. The package's description says
 * what it does, counts and writes, and its options.
 */
public final class StreamLoad {

	private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

	/**
	 * From a stream's connect to its response headers (SSE) or its handshake (WebSocket).
	 */
	private static final Duration OPEN_TIMEOUT = Duration.ofSeconds(15);

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

	private final ConcurrentLinkedQueue<String> streamRows = new ConcurrentLinkedQueue<>();

	private final Set<Stream> open = ConcurrentHashMap.newKeySet();

	private final AtomicInteger neverOpened = new AtomicInteger();

	private final CountDownLatch allOpened;

	private final AtomicLong events = new AtomicLong();

	private final AtomicLong lost = new AtomicLong();

	private final AtomicLong twice = new AtomicLong();

	private final AtomicLong retryFields = new AtomicLong();

	private final Map<String, AtomicLong> ends = new ConcurrentHashMap<>();

	private final Map<String, AtomicLong> failures = new ConcurrentHashMap<>();

	private final Prober prober = new Prober(CONNECT_TIMEOUT);

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
		this.prober.start(this.target, number("probe-rate", 50), this.options.getOrDefault("probe-path", "/hello"));
		if (this.idleTimeoutMs > 0) {
			this.timer.scheduleWithFixedDelay(this::endIdleStreams, 1, 1, TimeUnit.SECONDS);
		}
		try (PrintWriter streams = writer("streams.tsv"); PrintWriter probes = writer("probes.tsv")) {
			boolean openedWritten = false;
			while (!Files.exists(stopFile) && System.currentTimeMillis() - started < maxMs) {
				Thread.sleep(200);
				drain(this.streamRows, streams);
				this.prober.drainTo(probes);
				if (!openedWritten && this.allOpened.getCount() == 0) {
					Files.writeString(this.out.resolve("opened"), System.currentTimeMillis() + "\n");
					openedWritten = true;
				}
			}
			this.stopping = true;
			this.timer.shutdownNow();
			this.prober.stop();
			long now = System.currentTimeMillis();
			for (Stream stream : this.open) {
				stream.end("open", 0, now);
			}
			Thread.sleep(200);
			drain(this.streamRows, streams);
			this.prober.drainTo(probes);
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
	private final class Stream implements SseLines.Listener {

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

		@Override
		public void subscribed(Runnable cancel) {
			this.abort = cancel;
		}

		@Override
		public void line() {
			this.lastReceivedMs = System.currentTimeMillis();
		}

		@Override
		public void event(long id) {
			this.received.incrementAndGet();
			this.client.onEvent(id);
		}

		@Override
		public void eventWithoutId() {
			this.received.incrementAndGet();
		}

		@Override
		public void retry(long ms) {
			this.retryMs = ms;
			synchronized (this.client) {
				this.client.retryMs = ms;
			}
			StreamLoad.this.retryFields.incrementAndGet();
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
				return BodySubscribers.fromLineSubscriber(new SseLines(stream));
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

	private void writeSummary(long wallMs) throws IOException {
		Map<String, Object> summary = new TreeMap<>();
		summary.put("events", this.events.get());
		summary.put("lost", this.lost.get());
		summary.put("twice", this.twice.get());
		summary.put("retry_fields", this.retryFields.get());
		summary.put("never_opened", this.allOpened.getCount());
		this.prober.summarise(summary);
		LoadFiles.writeSummary(this.out, wallMs, summary, this.ends, this.failures);
	}

	private PrintWriter writer(String name) {
		return LoadFiles.writer(this.out.resolve(name));
	}

	static void drain(ConcurrentLinkedQueue<String> rows, PrintWriter writer) {
		LoadFiles.drain(rows, writer);
	}

	static ThreadFactory daemon(String name) {
		return LoadFiles.daemon(name);
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

}
