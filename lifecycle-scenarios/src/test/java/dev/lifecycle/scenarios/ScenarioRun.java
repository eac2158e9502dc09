package dev.lifecycle.scenarios;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.testfixtures.ChildJvm;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import org.jspecify.annotations.Nullable;

/**
 * Runs one {@link Scenario}: starts the application on its stack, puts it under load from
 * real clients (HTTP/1.1 and HTTP/2 on the JDK's HttpClient, gRPC over Netty), holds a
 * long request, a server stream and, on the web stacks, a stream whose client reads
 * nothing (on the gRPC stack, two calls that never answer), sends SIGTERM, and records
 * what every client saw, the exit code, the report file and the next start's summary.
 * {@link PromiseChecks} judges the record.
 */
final class ScenarioRun {

	static final Duration DRAIN_DELAY = Duration.ofSeconds(3);

	/**
	 * After the signal, every request and call started within this is answered: the drain
	 * delay less a second that a loaded machine may take to hand the signal to the
	 * application.
	 */
	static final long SERVED_WINDOW_MS = DRAIN_DELAY.toMillis() - 1000;

	static final long SLOW_MILLIS = DRAIN_DELAY.toMillis() + 4000;

	static final String GRPC_SERVER = "nettyGrpcServerLifecycle";

	private static final String DEAF_PATH = "/" + ScenarioService.ECHO.getFullMethodName();

	/**
	 * The gRPC stack's grace period, shorter than its budget: the calls it cuts must be
	 * named.
	 */
	static final Duration GRPC_GRACE_PERIOD = Duration.ofSeconds(2);

	/**
	 * The gRPC Netty server's budget: a client that held the stop would hold it this
	 * long.
	 */
	static final Duration GRPC_SERVER_BUDGET = Duration.ofSeconds(30);

	private static final Duration EXIT = Duration.ofSeconds(90);

	final Scenario scenario;

	final Path directory;

	final List<ChildJvm> children = new ArrayList<>();

	final List<Attempt> attempts = new CopyOnWriteArrayList<>();

	/**
	 * Each round of pipelined requests: when it started (ms after the signal) and the
	 * answers.
	 */
	final List<Map.Entry<Long, String>> pipelined = new ArrayList<>();

	final List<String> asyncAccepted = new CopyOnWriteArrayList<>();

	HttpClient.Version http2Version;

	volatile long readinessDownMs = -1;

	volatile long notServingMs = -1;

	/**
	 * The last answer of the health service before NOT_SERVING, or how asking it failed.
	 */
	volatile String lastHealth = "";

	long exitMs = -1;

	int exitCode = -1;

	String longRequest = "not sent";

	volatile Status ticksEnd;

	volatile long ticksEndMs = -1;

	volatile int ticksReceived;

	final List<String> stuckEnds = new ArrayList<>();

	/** The calls of a client deaf to the GOAWAY and its PING, from the signal on. */
	final List<Attempt> deafCalls = new CopyOnWriteArrayList<>();

	volatile long goAwayMs = -1;

	/** The newest report the application left, read as the next start reads it. */
	volatile @Nullable ShutdownRecord report;

	/** How resuming the event streams on the next instance failed, if it did. */
	volatile String resumeFailure = "";

	String summary = "";

	String log = "";

	private final long origin = System.nanoTime();

	/** When the signal was sent, in milliseconds since the run began; until then none. */
	private volatile long signalled = Long.MIN_VALUE;

	private final AtomicBoolean stop = new AtomicBoolean();

	private final List<ManagedChannel> channels = new ArrayList<>();

	private final HttpClient http1 = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(2))
		.build();

	private final HttpClient http2 = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_2)
		.connectTimeout(Duration.ofSeconds(2))
		.build();

	/**
	 * Asks for readiness on its own connections, so that the load's queue does not delay
	 * it.
	 */
	private final HttpClient probe = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(2))
		.build();

	private int httpPort;

	private RawH2Connection deaf;

	/** On the web stacks, what the server says on an open HTTP/2 connection. */
	GoAwayForm goAwayForm;

	/** The streams whose ends the pacing spreads. */
	final PacedStreams paced = new PacedStreams(this::sinceSignal);

	ScenarioRun(Scenario scenario, Path directory) {
		this.scenario = scenario;
		this.directory = directory;
	}

	ScenarioRun run() throws Exception {
		Stack stack = this.scenario.stack();
		String classpath = ScenarioJvm.classpath(stack.leftOut());
		List<String> arguments = new ArrayList<>(common());
		arguments.addAll(stack.arguments());
		ChildJvm app = ScenarioJvm.start("app", this.directory, classpath, arguments);
		this.children.add(app);
		Properties ports = ScenarioJvm.awaitPorts(app, this.directory.resolve("app.ports"));
		this.httpPort = Integer.parseInt(ports.getProperty("http"));
		ManagedChannel channel = channel(Integer.parseInt(ports.getProperty("grpc")));

		warmUp(channel);
		CompletableFuture<HttpResponse<String>> slow = null;
		if (stack.web()) {
			slow = this.http1.sendAsync(request(this.http1, "/slow?millis=" + SLOW_MILLIS, Duration.ofSeconds(60)),
					HttpResponse.BodyHandlers.ofString());
			app.awaitLog("scenario: slow request of " + SLOW_MILLIS + " ms received", Duration.ofSeconds(30));
			stalledStream(Integer.parseInt(ports.getProperty("grpc")));
			app.awaitLog("scenario: flood stream stalled", Duration.ofSeconds(30));
			this.deaf = RawH2Connection.deaf(Integer.parseInt(ports.getProperty("grpc")), this::sinceSignal);
			this.deafCalls.add(new Attempt("deaf gRPC", "Echo", -1, -1, this.deaf.call(DEAF_PATH)));
		}
		else {
			stuckCalls(channel);
			await(() -> occurrences(app.log(), "scenario: stuck call started") == 2, Duration.ofSeconds(30));
		}
		CompletableFuture<Void> ticks = ticks(channel);
		await(() -> this.ticksReceived >= 3, Duration.ofSeconds(30));
		if (stack.web()) {
			this.paced.openEventStreams(this.httpPort);
			this.paced.openWebSockets(this.httpPort);
			this.goAwayForm = new GoAwayForm(this.httpPort, this::sinceSignal);
		}
		else {
			this.paced.openGrpcStreams(channel);
		}
		List<Thread> load = load(channel);
		// The signal arrives while every client's load is flowing, however slow the
		// machine.
		List<String> clients = stack.web() ? List.of("HTTP/1.1", "HTTP/2", "gRPC") : List.of("gRPC");
		await(() -> clients.stream()
			.allMatch((client) -> this.attempts.stream()
				.filter((attempt) -> attempt.client().equals(client))
				.count() >= 3), Duration.ofSeconds(30));

		this.signalled = now();
		app.sigterm();
		List<Thread> watchers = new ArrayList<>();
		watchers.add(thread("health", () -> watchHealth(channel)));
		if (stack.web()) {
			GoAwayForm form = this.goAwayForm;
			watchers.add(thread("goaway", () -> form.watch(Duration.ofSeconds(10), this::sinceSignal)));
			watchers.add(thread("readiness", this::watchReadiness));
			// Once the shutdown has begun, while the drain delay lasts.
			app.awaitLog("Lifecycle: shutdown initiated", Duration.ofSeconds(30));
			for (int round = 0; round < 3; round++) {
				long started = sinceSignal();
				this.pipelined.add(Map.entry(started, Pipelining.send(this.httpPort, "/slow?millis=20")));
			}
		}
		if (this.deaf != null) {
			RawH2Connection client = this.deaf;
			watchers.add(thread("deaf", () -> deafCalls(client)));
		}
		this.exitCode = app.awaitExit(EXIT);
		this.exitMs = sinceSignal();
		this.paced.awaitEnds(Duration.ofSeconds(10));
		this.stop.set(true);
		for (Thread thread : load) {
			thread.join(15_000);
		}
		for (Thread thread : watchers) {
			thread.join(15_000);
		}
		if (slow != null) {
			this.longRequest = outcome(slow);
		}
		if (this.goAwayForm != null) {
			System.out.printf("scenario %s: HTTP/2 connection %s%n", this.scenario, this.goAwayForm.describe());
		}
		try {
			ticks.get(10, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			// Judged from ticksEnd.
		}
		if (this.deaf != null) {
			this.goAwayMs = this.deaf.goAway.getNow(-1L);
			this.deaf.close();
		}
		this.log = app.log();
		this.report = newestRecord();
		this.channels.forEach(ManagedChannel::shutdownNow);
		this.summary = nextStartSummary(classpath);
		return this;
	}

	private List<String> common() {
		return List.of("--server.port=0", "--spring.grpc.server.port=0",
				"--spring.grpc.server.inprocess.name=scenario-" + ProcessHandle.current().pid() + "-"
						+ this.directory.getFileName(),
				"--scenario.ports-file=" + this.directory.resolve("app.ports"),
				"--lifecycle.run-marker.path=" + this.directory.resolve("app.running"),
				"--lifecycle.pre-stop.path=" + this.directory.resolve("prestop"),
				"--lifecycle.drain-delay=" + DRAIN_DELAY.toMillis() + "ms",
				"--lifecycle.components." + GRPC_SERVER + ".graceful-shutdown=" + GRPC_SERVER_BUDGET.toSeconds() + "s",
				"--spring.lifecycle.timeout-per-shutdown-phase=10s",
				"--lifecycle.streams.end-rate=" + PacedStreams.END_RATE,
				"--lifecycle.streams.sse-retry=" + PacedStreams.SSE_RETRY.toMillis() + "ms",
				"--lifecycle.streams.websocket-close-code=service-restart",
				"--spring.threads.virtual.enabled=" + this.scenario.threads().virtual());
	}

	private void warmUp(ManagedChannel channel) throws Exception {
		if (this.scenario.stack().web()) {
			this.http1.send(request(this.http1, "/hello", Duration.ofSeconds(30)),
					HttpResponse.BodyHandlers.ofString());
			HttpResponse<String> h2 = this.http2.send(request(this.http2, "/hello", Duration.ofSeconds(30)),
					HttpResponse.BodyHandlers.ofString());
			this.http2Version = h2.version();
		}
		ClientCalls.blockingUnaryCall(channel, ScenarioService.ECHO,
				CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), "warm-up");
	}

	/**
	 * A stream whose client never asks for a message: the connection's window fills, and
	 * the server stalls.
	 */
	private void stalledStream(int port) {
		ManagedChannel stalled = NettyChannelBuilder.forAddress("localhost", port)
			.usePlaintext()
			.disableRetry()
			.flowControlWindow(64 * 1024)
			.build();
		this.channels.add(stalled);
		ClientCall<String, String> call = stalled.newCall(ScenarioService.FLOOD, CallOptions.DEFAULT);
		call.start(new ClientCall.Listener<>() {
		}, new Metadata());
		call.sendMessage("");
		call.halfClose();
	}

	private void stuckCalls(ManagedChannel channel) {
		for (int i = 0; i < 2; i++) {
			ClientCalls.asyncUnaryCall(channel.newCall(ScenarioService.STUCK, CallOptions.DEFAULT), "",
					new StreamObserver<>() {
						@Override
						public void onNext(String value) {
							record("OK");
						}

						@Override
						public void onError(Throwable error) {
							record(Status.fromThrowable(error).getCode().toString());
						}

						@Override
						public void onCompleted() {
						}

						private void record(String end) {
							synchronized (ScenarioRun.this.stuckEnds) {
								ScenarioRun.this.stuckEnds.add(end);
							}
						}
					});
		}
	}

	private CompletableFuture<Void> ticks(ManagedChannel channel) {
		CompletableFuture<Void> ended = new CompletableFuture<>();
		AtomicInteger received = new AtomicInteger();
		ClientCalls.asyncServerStreamingCall(channel.newCall(ScenarioService.TICKS, CallOptions.DEFAULT), "",
				new StreamObserver<>() {
					@Override
					public void onNext(String value) {
						ScenarioRun.this.ticksReceived = received.incrementAndGet();
					}

					@Override
					public void onError(Throwable error) {
						end(Status.fromThrowable(error));
					}

					@Override
					public void onCompleted() {
						end(Status.OK);
					}

					private void end(Status status) {
						ScenarioRun.this.ticksEndMs = sinceSignal();
						ScenarioRun.this.ticksEnd = status;
						ended.complete(null);
					}
				});
		return ended;
	}

	private List<Thread> load(ManagedChannel channel) {
		List<Thread> threads = new ArrayList<>();
		if (this.scenario.stack().web()) {
			threads.add(thread("http/1.1", () -> {
				for (int i = 0; !this.stop.get(); i++) {
					if (i % 4 == 3) {
						String id = "a" + i;
						if (get(this.http1, "HTTP/1.1", "/async?id=" + id).equals("200")) {
							this.asyncAccepted.add(id);
						}
					}
					else {
						get(this.http1, "HTTP/1.1", "/hello");
					}
					pause();
				}
			}));
			threads.add(thread("http/2", () -> {
				while (!this.stop.get()) {
					get(this.http2, "HTTP/2", "/hello");
					pause();
				}
			}));
		}
		threads.add(thread("grpc", () -> {
			for (int i = 0; !this.stop.get(); i++) {
				String id = "g" + i;
				boolean async = !this.scenario.stack().web() && i % 4 == 3;
				long started = sinceSignal();
				String result;
				try {
					ClientCalls.blockingUnaryCall(channel, ScenarioService.ECHO,
							CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS), async ? "async " + id : "load");
					result = "OK";
					if (async) {
						this.asyncAccepted.add(id);
					}
				}
				catch (StatusRuntimeException ex) {
					result = ex.getStatus().getCode().toString();
				}
				this.attempts
					.add(new Attempt("gRPC", async ? "Echo async?id=" + id : "Echo", started, sinceSignal(), result));
				pause();
			}
		}));
		return threads;
	}

	private String get(HttpClient client, String name, String path) {
		long started = sinceSignal();
		String result;
		try {
			result = Integer.toString(
					client.send(request(client, path, Duration.ofSeconds(5)), HttpResponse.BodyHandlers.ofString())
						.statusCode());
		}
		catch (IOException ex) {
			result = "io: " + ex;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			result = "interrupted";
		}
		this.attempts.add(new Attempt(name, path, started, sinceSignal(), result));
		return result;
	}

	/** Calls on the deaf connection until it is closed, or for 14 s after the signal. */
	private void deafCalls(RawH2Connection client) {
		while (!this.stop.get() && sinceSignal() < 14_000) {
			long started = sinceSignal();
			String result = client.call(DEAF_PATH);
			this.deafCalls.add(new Attempt("deaf gRPC", "Echo", started, sinceSignal(), result));
			if (result.equals("closed")) {
				return;
			}
			pause();
		}
	}

	private void watchReadiness() {
		while (!this.stop.get()) {
			String status = getQuietly("/actuator/health/readiness");
			if (status.equals("503")) {
				this.readinessDownMs = sinceSignal();
				return;
			}
			pause();
		}
	}

	private void watchHealth(ManagedChannel channel) {
		HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
		while (!this.stop.get()) {
			try {
				ServingStatus status = health.withDeadlineAfter(2, TimeUnit.SECONDS)
					.check(HealthCheckRequest.newBuilder().setService("").build())
					.getStatus();
				if (status == ServingStatus.NOT_SERVING) {
					this.notServingMs = sinceSignal();
					return;
				}
				seen(status.toString());
			}
			catch (StatusRuntimeException ex) {
				// The server is gone, or never had the service: NOT_SERVING was never
				// seen.
				seen(ex.getStatus().getCode() + " " + ex.getStatus().getDescription());
			}
			pause();
		}
	}

	private void seen(String health) {
		String last = this.lastHealth;
		if (!last.contains(health)) {
			this.lastHealth = last + "; " + health + " at " + sinceSignal() + " ms";
		}
	}

	private String getQuietly(String path) {
		try {
			return Integer.toString(this.probe
				.send(request(this.probe, path, Duration.ofSeconds(2)), HttpResponse.BodyHandlers.discarding())
				.statusCode());
		}
		catch (IOException ex) {
			return "io";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "interrupted";
		}
	}

	private HttpRequest request(HttpClient client, String path, Duration timeout) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + this.httpPort + path)).timeout(timeout).build();
	}

	private static String outcome(CompletableFuture<HttpResponse<String>> response) {
		try {
			HttpResponse<String> answer = response.get(60, TimeUnit.SECONDS);
			return answer.statusCode() + " " + answer.body();
		}
		catch (Exception ex) {
			return "failed: " + ex;
		}
	}

	private @Nullable ShutdownRecord newestRecord() throws IOException {
		List<Path> reports = ShutdownRecord.files(this.directory.resolve("app.running"));
		return reports.isEmpty() ? null : ShutdownRecord.read(reports.get(reports.size() - 1));
	}

	/**
	 * Starts the application again and returns its line about the previous run. On the
	 * web stacks it is the instance the event streams resume on (with
	 * {@code Last-Event-ID}, after their paced end); on the gRPC stack it starts without
	 * a web server.
	 */
	private String nextStartSummary(String classpath) throws Exception {
		List<String> arguments = new ArrayList<>(common());
		arguments.removeIf((argument) -> argument.startsWith("--scenario.ports-file="));
		Path ports = this.directory.resolve("next.ports");
		if (this.scenario.stack().web()) {
			arguments.addAll(this.scenario.stack().arguments());
			arguments.add("--scenario.ports-file=" + ports);
		}
		else {
			arguments.add("--spring.main.web-application-type=none");
		}
		ChildJvm next = ScenarioJvm.start("next", this.directory, classpath, arguments);
		this.children.add(next);
		try {
			if (this.scenario.stack().web()) {
				try {
					this.paced
						.resumeEventStreams(Integer.parseInt(ScenarioJvm.awaitPorts(next, ports).getProperty("http")));
				}
				catch (Exception ex) {
					this.resumeFailure = ex.toString();
				}
			}
			next.awaitLog("Lifecycle: previous ", Duration.ofSeconds(180));
			return next.logLines().filter((line) -> line.contains("Lifecycle: previous ")).findFirst().orElse("");
		}
		catch (AssertionError | RuntimeException ex) {
			return "no summary: " + ex.getMessage();
		}
		finally {
			next.destroyForcibly();
		}
	}

	private ManagedChannel channel(int port) {
		ManagedChannel channel = NettyChannelBuilder.forAddress("localhost", port)
			.usePlaintext()
			.disableRetry()
			.build();
		this.channels.add(channel);
		return channel;
	}

	/**
	 * Milliseconds since the signal, negative before it (the run's first instant before
	 * it).
	 */
	private long sinceSignal() {
		long signal = this.signalled;
		return now() - ((signal == Long.MIN_VALUE) ? Long.MAX_VALUE / 2 : signal);
	}

	private long now() {
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.origin);
	}

	void destroy() throws InterruptedException {
		this.stop.set(true);
		this.paced.close();
		if (this.deaf != null) {
			this.deaf.close();
		}
		if (this.goAwayForm != null) {
			this.goAwayForm.close();
		}
		this.channels.forEach(ManagedChannel::shutdownNow);
		for (ChildJvm child : this.children) {
			child.destroyForcibly();
		}
	}

	static int occurrences(String text, String part) {
		return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
	}

	private static void await(java.util.concurrent.Callable<Boolean> condition, Duration timeout) {
		org.awaitility.Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(20)).until(condition);
	}

	private static Thread thread(String name, Runnable task) {
		Thread thread = new Thread(task, "scenario-" + name);
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

	private static void pause() {
		try {
			Thread.sleep(20);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
