package dev.lifecycle.autoconfigure.web;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many clients of one server-sent event stream, each on a connection of its own, that
 * note when the server ended their stream. Not API: public only for Lifecycle's own test
 * packages.
 */
public final class EventStreamClients implements AutoCloseable {

	private final ExecutorService readers = Executors.newCachedThreadPool();

	private final List<CompletableFuture<Long>> ends = new ArrayList<>();

	private final List<List<String>> lines = new ArrayList<>();

	/** Held while the streams live: a client that is collected closes its connections. */
	private final List<HttpClient> clients = new ArrayList<>();

	/**
	 * Opens {@code count} streams of {@code path} and waits until each has answered 200
	 * with an event stream.
	 */
	public EventStreamClients(int port, String path, int count) throws Exception {
		for (int i = 0; i < count; i++) {
			// A client per stream: the JDK's client would multiplex nothing over
			// HTTP/1.1, but it caps the connections it keeps per client.
			HttpClient client = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.executor(this.readers)
				.build();
			this.clients.add(client);
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
				.timeout(Duration.ofSeconds(20))
				.build();
			HttpResponse<java.util.stream.Stream<String>> response = client.send(request,
					HttpResponse.BodyHandlers.ofLines());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("content-type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
			Iterator<String> body = response.body().iterator();
			List<String> read = new java.util.concurrent.CopyOnWriteArrayList<>();
			this.lines.add(read);
			this.ends.add(CompletableFuture.supplyAsync(() -> {
				while (body.hasNext()) {
					read.add(body.next());
				}
				return System.nanoTime();
			}, this.readers));
		}
	}

	/**
	 * Waits until every stream has ended cleanly (its body ended, no error) and returns
	 * how far apart the first and the last end were.
	 */
	public Duration awaitEndsSpread(Duration timeout) throws Exception {
		CompletableFuture.allOf(this.ends.toArray(CompletableFuture[]::new))
			.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		long first = this.ends.stream().mapToLong(CompletableFuture::join).min().orElseThrow();
		long last = this.ends.stream().mapToLong(CompletableFuture::join).max().orElseThrow();
		return Duration.ofNanos(last - first);
	}

	/**
	 * Every line each stream received, in order, once all have ended (see
	 * {@link #awaitEndsSpread}).
	 */
	public List<List<String>> lines() {
		return this.lines;
	}

	/**
	 * The reconnection time each stream was advised last ({@code retry:} field), or
	 * {@code -1} for a stream that got none.
	 */
	public List<Long> retries() {
		return this.lines.stream()
			.map((received) -> received.stream()
				.filter((line) -> line.startsWith("retry:"))
				.map((line) -> Long.parseLong(line.substring("retry:".length()).strip()))
				.reduce((first, second) -> second)
				.orElse(-1L))
			.toList();
	}

	@Override
	public void close() {
		this.readers.shutdownNow();
	}

}
