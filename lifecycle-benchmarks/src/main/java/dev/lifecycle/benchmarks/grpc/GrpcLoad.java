package dev.lifecycle.benchmarks.grpc;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import dev.lifecycle.sample.grpc.v1.Ack;
import dev.lifecycle.sample.grpc.v1.Event;
import dev.lifecycle.sample.grpc.v1.IngestGrpc;
import dev.lifecycle.sample.grpc.v1.Offset;
import dev.lifecycle.sample.grpc.v1.WatchOffsetRequest;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ClientStreamTracer;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;

/**
 * The load client of {@code rolling-restart.sh}'s {@code grpc} mode: unary {@code Append}
 * calls and {@code WatchOffset} server streams against the sample's gRPC ingestion
 * service through one address (a TCP proxy in front of several instances), with grpc-java
 * over Netty and retries off, until a stop file appears.
 *
 * <p>
 * The calls go round robin over a fixed set of channels, each one HTTP/2 connection that
 * the proxy pins to one instance until the connection closes (a GOAWAY from the server
 * moves a channel to a new connection). With {@code --rate=0} a fixed number of calls is
 * always in flight (saturation); with a rate, calls start on a fixed schedule whatever
 * their answers (open loop). Every event has a unique id and its key equal to its id, so
 * each instance's {@code GET /counts} lists what it stored by id.
 *
 * <p>
 * Each stream is reopened after it ends. A stream ended by the server with
 * {@code UNAVAILABLE} (its trailers arrived: the server said "retry elsewhere") is a
 * clean end; one closed without trailers from the server (a reset or closed connection,
 * whatever status grpc-java then reports) is broken; one that ended that way before its
 * first message never opened (refused).
 *
 * <p>
 * Writes, in the output directory: {@code acked-grpc.txt} (the id of every call answered
 * OK), {@code wrk-summary.json} (the shape {@code rolling-restart.sh} reads from its wrk
 * script: calls answered, sent, per-status counts under the gRPC code names, latency
 * percentiles), {@code grpc-failures.txt} (status and description of each failure kind
 * with its count), {@code sse-streams.txt} ({@code start_ms end_ms rc opened messages}:
 * rc 0 clean, 1 not clean; opened 200 or 0) and {@code grpc-streams.txt} (the same with
 * the status and its description).
 *
 * <p>
 * Usage:
 * {@code GrpcLoad --target=HOST:PORT --out=DIR --stop-file=PATH [--prefix=ID_PREFIX]
 * [--rate=CALLS_PER_S] [--concurrency=16] [--channels=8] [--streams=20] [--deadline-ms=10000]
 * [--max-seconds=3600]}.
 */
public final class GrpcLoad {

	private final Map<String, String> options;

	private final List<ManagedChannel> channels = new ArrayList<>();

	private final AtomicLong next = new AtomicLong();

	private final AtomicLong sent = new AtomicLong();

	private final AtomicLong answered = new AtomicLong();

	private final Map<String, AtomicLong> statuses = new ConcurrentHashMap<>();

	private final Map<String, AtomicLong> failures = new ConcurrentHashMap<>();

	private final ConcurrentLinkedQueue<String> acked = new ConcurrentLinkedQueue<>();

	private final ConcurrentLinkedQueue<Long> latenciesMicros = new ConcurrentLinkedQueue<>();

	private final ConcurrentLinkedQueue<String> streamEnds = new ConcurrentLinkedQueue<>();

	private volatile boolean streamsStopping;

	private GrpcLoad(Map<String, String> options) {
		this.options = options;
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = new HashMap<>();
		for (String arg : args) {
			int eq = arg.indexOf('=');
			if (!arg.startsWith("--") || eq < 0) {
				throw new IllegalArgumentException("arguments are --name=value; got '" + arg + "'");
			}
			options.put(arg.substring(2, eq), arg.substring(eq + 1));
		}
		new GrpcLoad(options).run();
		System.exit(0);
	}

	private String option(String name, String fallback) {
		String value = this.options.getOrDefault(name, fallback);
		if (value == null) {
			throw new IllegalArgumentException("--" + name + " is required");
		}
		return value;
	}

	private int intOption(String name, int fallback) {
		return Integer.parseInt(option(name, Integer.toString(fallback)));
	}

	private void run() throws Exception {
		String[] target = option("target", null).split(":");
		Path out = Path.of(option("out", null));
		Path stopFile = Path.of(option("stop-file", null));
		String prefix = option("prefix", "g");
		double rate = Double.parseDouble(option("rate", "0"));
		int concurrency = intOption("concurrency", 16);
		int streams = intOption("streams", 20);
		long deadlineMs = intOption("deadline-ms", 10_000);
		long maxNanos = TimeUnit.SECONDS.toNanos(intOption("max-seconds", 3600));
		for (int i = 0, n = intOption("channels", 8); i < n; i++) {
			this.channels.add(NettyChannelBuilder.forAddress(target[0], Integer.parseInt(target[1]))
				.usePlaintext()
				.disableRetry()
				.build());
		}
		List<Thread> streamThreads = new ArrayList<>();
		for (int s = 0; s < streams; s++) {
			ManagedChannel channel = this.channels.get(s % this.channels.size());
			Thread thread = new Thread(() -> watchAgainAndAgain(channel), "stream-" + s);
			thread.setDaemon(true);
			thread.start();
			streamThreads.add(thread);
		}
		// Saturation: a permit per call in flight. A rate: calls start on schedule; the
		// bound only keeps a stalled server from growing the queue without end (calls
		// then wait for a permit, and the achieved rate in the summary shows it).
		Semaphore inFlight = new Semaphore((rate > 0) ? 20_000 : concurrency);
		long started = System.nanoTime();
		long interval = (rate > 0) ? (long) (1e9 / rate) : 0;
		long due = started;
		while (!Files.exists(stopFile) && System.nanoTime() - started < maxNanos) {
			if (interval > 0) {
				due += interval;
				long wait = due - System.nanoTime();
				if (wait > 0) {
					LockSupport.parkNanos(wait);
				}
			}
			if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
				continue;
			}
			append(prefix, deadlineMs, inFlight);
		}
		long stoppedCalling = System.nanoTime();
		// Calls in flight get their answer or their deadline.
		long waitUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMs + 5_000);
		while (this.answered.get() < this.sent.get() && System.nanoTime() < waitUntil) {
			Thread.sleep(20);
		}
		long durationMicros = TimeUnit.NANOSECONDS.toMicros(stoppedCalling - started);
		this.streamsStopping = true;
		for (ManagedChannel channel : this.channels) {
			channel.shutdownNow();
		}
		for (ManagedChannel channel : this.channels) {
			channel.awaitTermination(5, TimeUnit.SECONDS);
		}
		write(out, durationMicros);
	}

	private void append(String prefix, long deadlineMs, Semaphore inFlight) {
		long n = this.next.incrementAndGet();
		String id = prefix + "-" + n;
		ManagedChannel channel = this.channels.get((int) (n % this.channels.size()));
		Event event = Event.newBuilder().setId(id).setKey(id).setValue(1).build();
		long start = System.nanoTime();
		this.sent.incrementAndGet();
		IngestGrpc.newStub(channel)
			.withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS)
			.append(event, new StreamObserver<>() {

				@Override
				public void onNext(Ack ack) {
				}

				@Override
				public void onError(Throwable error) {
					Status status = Status.fromThrowable(error);
					count(GrpcLoad.this.statuses, status.getCode().name());
					count(GrpcLoad.this.failures, status.getCode() + ": " + describe(status));
					done();
				}

				@Override
				public void onCompleted() {
					count(GrpcLoad.this.statuses, "OK");
					GrpcLoad.this.acked.add(id);
					done();
				}

				private void done() {
					GrpcLoad.this.latenciesMicros.add(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start));
					GrpcLoad.this.answered.incrementAndGet();
					inFlight.release();
				}

			});
	}

	private void watchAgainAndAgain(ManagedChannel channel) {
		while (!this.streamsStopping) {
			StreamEnd end = watchOnce(channel);
			if (this.streamsStopping) {
				return;
			}
			this.streamEnds.add(end.line());
			// A stream that could not open is tried again after a pause, as an
			// EventSource does.
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(end.opened() ? 100 : 200));
		}
	}

	private StreamEnd watchOnce(ManagedChannel channel) {
		long startMs = System.currentTimeMillis();
		AtomicLong messages = new AtomicLong();
		AtomicLong trailers = new AtomicLong();
		ClientStreamTracer.Factory tracer = new ClientStreamTracer.Factory() {
			@Override
			public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
				return new ClientStreamTracer() {
					@Override
					public void inboundTrailers(Metadata received) {
						trailers.incrementAndGet();
					}
				};
			}
		};
		ClientCall<WatchOffsetRequest, Offset> call = channel.newCall(IngestGrpc.getWatchOffsetMethod(),
				CallOptions.DEFAULT.withStreamTracerFactory(tracer));
		CompletableFuture<Status> ended = new CompletableFuture<>();
		ClientCalls.asyncServerStreamingCall(call, WatchOffsetRequest.getDefaultInstance(), new StreamObserver<>() {

			@Override
			public void onNext(Offset offset) {
				messages.incrementAndGet();
			}

			@Override
			public void onError(Throwable error) {
				ended.complete(Status.fromThrowable(error));
			}

			@Override
			public void onCompleted() {
				ended.complete(Status.OK);
			}

		});
		Status status = ended.join();
		return new StreamEnd(startMs, System.currentTimeMillis(), status, trailers.get() > 0, messages.get());
	}

	private static String describe(Status status) {
		String description = (status.getDescription() != null) ? status.getDescription()
				: (status.getCause() != null) ? status.getCause().toString() : "";
		// One line, and a stable text per kind: ids and addresses would make every
		// failure its own kind.
		return description.replaceAll("\\s+", " ").replaceAll("'[^']*'", "'…'").replaceAll("[0-9a-f]{8,}", "…");
	}

	private static void count(Map<String, AtomicLong> counts, String key) {
		counts.computeIfAbsent(key, (k) -> new AtomicLong()).incrementAndGet();
	}

	private void write(Path out, long durationMicros) throws IOException {
		Files.createDirectories(out);
		Files.write(out.resolve("acked-grpc.txt"), this.acked, StandardCharsets.UTF_8);
		try (PrintWriter failuresOut = new PrintWriter(Files.newBufferedWriter(out.resolve("grpc-failures.txt")))) {
			new TreeMap<>(this.failures).forEach((kind, n) -> failuresOut.println(n + "\t" + kind));
		}
		List<String> ends = new ArrayList<>(this.streamEnds);
		Files.write(out.resolve("grpc-streams.txt"), ends, StandardCharsets.UTF_8);
		Files.write(out.resolve("sse-streams.txt"),
				ends.stream().map((line) -> String.join(" ", Arrays.copyOf(line.split("\t"), 5))).toList(),
				StandardCharsets.UTF_8);
		long[] latencies = this.latenciesMicros.stream().mapToLong(Long::longValue).sorted().toArray();
		StringBuilder codes = new StringBuilder();
		new TreeMap<>(this.statuses).forEach((code,
				n) -> codes.append(codes.isEmpty() ? "" : ",").append('"').append(code).append("\":").append(n.get()));
		double mean = Arrays.stream(latencies).average().orElse(0);
		String summary = String.format(Locale.ROOT,
				"{\"requests\":%d,\"sent\":%d,\"duration_us\":%d,\"statuses\":{%s},"
						+ "\"errors\":{\"connect\":0,\"read\":0,\"write\":0,\"status\":0,\"timeout\":0},"
						+ "\"latency_us\":{\"p50\":%d,\"p90\":%d,\"p99\":%d,\"p999\":%d,\"max\":%d,\"mean\":%.1f}}%n",
				this.answered.get(), this.sent.get(), durationMicros, codes, percentile(latencies, 50),
				percentile(latencies, 90), percentile(latencies, 99), percentile(latencies, 99.9),
				(latencies.length > 0) ? latencies[latencies.length - 1] : 0, mean);
		try {
			Files.writeString(out.resolve("wrk-summary.json"), summary);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static long percentile(long[] sorted, double p) {
		if (sorted.length == 0) {
			return 0;
		}
		int index = (int) Math.ceil(p / 100 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

	/** How one stream ended, as a line of the streams file. */
	private record StreamEnd(long startMs, long endMs, Status status, boolean serverStatus, long messages) {

		boolean clean() {
			return this.serverStatus && this.status.getCode() == Status.Code.UNAVAILABLE;
		}

		boolean opened() {
			return clean() || this.messages > 0;
		}

		String line() {
			return this.startMs + "\t" + this.endMs + "\t" + (clean() ? 0 : 1) + "\t" + (opened() ? 200 : 0) + "\t"
					+ this.messages + "\t" + (this.serverStatus ? "server" : "transport") + "\t" + this.status.getCode()
					+ "\t" + describe(this.status);
		}

	}

}
