package dev.lifecycle.scenarios;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
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
 * Many streams open through a shutdown, each noting when and how it ended: server-sent
 * event streams on the web stacks (with every line they received), gRPC server streams on
 * the gRPC stack. What the suite judges the pacing of the ends by.
 */
final class PacedStreams implements AutoCloseable {

	/** How many streams a scenario opens. */
	static final int COUNT = 20;

	/** The pace the scenario asks for, streams per second: 20 streams take 2 s. */
	static final int END_RATE = 10;

	/** The reconnection time the scenario asks the server to advise. */
	static final Duration SSE_RETRY = Duration.ofSeconds(2);

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

	/** Every line each event stream received. */
	final List<List<String>> lines = new CopyOnWriteArrayList<>();

	PacedStreams(LongSupplier sinceSignal) {
		this.sinceSignal = sinceSignal;
	}

	/**
	 * Opens the event streams, each on its own connection, and waits for their first
	 * event.
	 */
	void openEventStreams(int port) throws Exception {
		for (int i = 0; i < COUNT; i++) {
			HttpClient client = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.executor(this.readers)
				.build();
			this.clients.add(client);
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/events"))
				.timeout(Duration.ofSeconds(30))
				.build();
			HttpResponse<Stream<String>> response = client.send(request, HttpResponse.BodyHandlers.ofLines());
			Iterator<String> body = response.body().iterator();
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
				this.ends.add(new End(how, this.sinceSignal.getAsLong()));
			});
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
							PacedStreams.this.ends.add(new End(Status.fromThrowable(error).getCode().name(),
									PacedStreams.this.sinceSignal.getAsLong()));
						}

						@Override
						public void onCompleted() {
							PacedStreams.this.ends.add(new End("OK", PacedStreams.this.sinceSignal.getAsLong()));
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
		this.readers.shutdownNow();
	}

	/**
	 * How one stream ended ({@code clean}, {@code broken: …}, or a gRPC status code) and
	 * when, in ms after the signal.
	 */
	record End(String how, long atMs) {
	}

}
