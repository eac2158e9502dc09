package dev.lifecycle.scenarios;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Many streams open through a shutdown, each noting when and how it ended: on the web
 * stacks server-sent event streams (with every line they received) and WebSocket sessions
 * (with the close code they got), on the gRPC stack gRPC server streams. What the suite
 * judges the pacing of the ends, the advice they carry and the resumption of the event
 * streams by.
 */
final class PacedStreams implements AutoCloseable {

	/** How many streams a scenario opens. */
	static final int COUNT = 20;

	/** Of those, on the web stacks, how many are WebSocket sessions. */
	static final int WEB_SOCKETS = 6;

	/** The pace the scenario asks for, streams per second: 20 streams take 2 s. */
	static final int END_RATE = 10;

	/** The reconnection time the scenario asks the server to advise. */
	static final Duration SSE_RETRY = Duration.ofSeconds(2);

	/** The close code the scenario asks WebSocket sessions to get: service restart. */
	static final int CLOSE_CODE = 1012;

	/** How many events a resumed event stream reads from the next instance. */
	static final int RESUMED_EVENTS = 3;

	private final ExecutorService readers = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "scenario-stream-reader");
		thread.setDaemon(true);
		return thread;
	});

	private final LongSupplier sinceSignal;

	/** One per stream once it ended: how, and when (ms after the signal). */
	final List<End> ends = new CopyOnWriteArrayList<>();

	/** Held while the streams live: a client that is collected closes its connections. */
	private final List<HttpClient> clients = new CopyOnWriteArrayList<>();

	/** Held while the sessions live. */
	private final List<WebSocket> sockets = new CopyOnWriteArrayList<>();

	/** Every line each event stream received. */
	final List<List<String>> lines = new CopyOnWriteArrayList<>();

	/**
	 * Every line each event stream received once resumed with {@code Last-Event-ID} on
	 * the next instance, in the order of {@link #lines}; empty until then.
	 */
	final List<List<String>> resumed = new CopyOnWriteArrayList<>();

	PacedStreams(LongSupplier sinceSignal) {
		this.sinceSignal = sinceSignal;
	}

	/**
	 * Opens the event streams, each on its own connection, and waits for their first
	 * event.
	 */
	void openEventStreams(int port) throws Exception {
		for (int i = 0; i < COUNT - WEB_SOCKETS; i++) {
			Iterator<String> body = eventStream(port, null);
			List<String> received = new CopyOnWriteArrayList<>();
			this.lines.add(received);
			this.readers.execute(() -> {
				String how = "clean";
				try {
					while (body.hasNext()) {
						received.add(body.next());
					}
				}
				catch (RuntimeException ex) {
					how = "broken: " + ex;
				}
				this.ends.add(new End("event stream", how, this.sinceSignal.getAsLong()));
			});
		}
	}

	/** The lines of a new event stream, on a connection of its own. */
	private Iterator<String> eventStream(int port, String lastEventId) throws Exception {
		HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(this.readers).build();
		this.clients.add(client);
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/events"))
			.timeout(Duration.ofSeconds(30));
		if (lastEventId != null) {
			request.header("Last-Event-ID", lastEventId);
		}
		HttpResponse<Stream<String>> response = client.send(request.build(), HttpResponse.BodyHandlers.ofLines());
		return response.body().iterator();
	}

	/**
	 * Opens the WebSocket sessions, each on its own connection, and waits until each has
	 * echoed a message.
	 */
	void openWebSockets(int port) throws Exception {
		HttpClient client = HttpClient.newBuilder().executor(this.readers).build();
		this.clients.add(client);
		for (int i = 0; i < WEB_SOCKETS; i++) {
			CompletableFuture<String> echo = new CompletableFuture<>();
			WebSocket socket = client.newWebSocketBuilder()
				.connectTimeout(Duration.ofSeconds(10))
				.buildAsync(URI.create("ws://localhost:" + port + "/ws"), new Session(echo))
				.get(30, TimeUnit.SECONDS);
			this.sockets.add(socket);
			socket.sendText("hi", true).get(10, TimeUnit.SECONDS);
			echo.get(10, TimeUnit.SECONDS);
		}
	}

	/**
	 * Resumes every event stream on the next instance with the id of the last event it
	 * received whole, as {@code EventSource} does, and reads a few events from there.
	 */
	void resumeEventStreams(int port) throws Exception {
		List<CompletableFuture<List<String>>> all = new ArrayList<>();
		for (List<String> received : this.lines) {
			String lastId = ServerSentEvents.lastEventId(received);
			Iterator<String> body = eventStream(port, lastId);
			all.add(CompletableFuture.supplyAsync(() -> {
				List<String> lines = new ArrayList<>();
				while (ServerSentEvents.events(lines).size() < RESUMED_EVENTS && body.hasNext()) {
					lines.add(body.next());
				}
				return lines;
			}, this.readers));
		}
		for (CompletableFuture<List<String>> lines : all) {
			this.resumed.add(lines.get(30, TimeUnit.SECONDS));
		}
	}

	/** Opens the gRPC server streams and waits for a first message on each. */
	void openGrpcStreams(ManagedChannel channel) throws InterruptedException {
		java.util.concurrent.CountDownLatch first = new java.util.concurrent.CountDownLatch(COUNT);
		for (int i = 0; i < COUNT; i++) {
			ClientCalls.asyncServerStreamingCall(channel.newCall(ScenarioService.TICKS, CallOptions.DEFAULT), "",
					new StreamObserver<>() {
						private boolean counted;

						@Override
						public void onNext(String value) {
							if (!this.counted) {
								this.counted = true;
								first.countDown();
							}
						}

						@Override
						public void onError(Throwable error) {
							PacedStreams.this.ends
								.add(new End("gRPC stream", Status.fromThrowable(error).getCode().name(),
										PacedStreams.this.sinceSignal.getAsLong()));
						}

						@Override
						public void onCompleted() {
							PacedStreams.this.ends
								.add(new End("gRPC stream", "OK", PacedStreams.this.sinceSignal.getAsLong()));
						}
					});
		}
		first.await(30, TimeUnit.SECONDS);
	}

	/**
	 * Waits, within the bound, until every stream has ended; the promise's check judges
	 * those that did not.
	 */
	void awaitEnds(Duration bound) {
		try {
			Awaitility.await().atMost(bound).until(() -> this.ends.size() >= COUNT);
		}
		catch (ConditionTimeoutException ex) {
			// Judged by the check, which names the streams that did not end.
		}
	}

	@Override
	public void close() {
		this.sockets.forEach(WebSocket::abort);
		this.readers.shutdownNow();
	}

	/**
	 * How one stream of a kind ({@code event stream}, {@code WebSocket}, {@code gRPC
	 * stream}) ended ({@code clean}, {@code close <code>}, {@code broken: …}, or a gRPC
	 * status code) and when, in ms after the signal.
	 */
	record End(String kind, String how, long atMs) {
	}

	/** One WebSocket session: its first echo, then its end. */
	private final class Session implements WebSocket.Listener {

		private final CompletableFuture<String> echo;

		Session(CompletableFuture<String> echo) {
			this.echo = echo;
		}

		@Override
		public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
			this.echo.complete(data.toString());
			socket.request(1);
			return null;
		}

		@Override
		public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
			PacedStreams.this.ends
				.add(new End("WebSocket", "close " + statusCode, PacedStreams.this.sinceSignal.getAsLong()));
			return null;
		}

		@Override
		public void onError(WebSocket socket, Throwable error) {
			PacedStreams.this.ends
				.add(new End("WebSocket", "broken: " + error, PacedStreams.this.sinceSignal.getAsLong()));
		}

	}

}
