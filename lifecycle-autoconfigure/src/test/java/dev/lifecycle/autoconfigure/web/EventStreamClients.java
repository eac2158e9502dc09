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

	/**
	 * Opens {@code count} streams of {@code path} and waits until each has answered 200
	 * with an event stream.
	 */
	public EventStreamClients(int port, String path, int count) throws Exception {
		for (int i = 0; i < count; i++) {
			// A client per stream: the JDK's client would multiplex nothing over
			// HTTP/1.1, but it caps the connections it keeps per client.
			HttpClient client = HttpClient.newBuilder().executor(this.readers).build();
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build();
			HttpResponse<java.util.stream.Stream<String>> response = client.send(request,
					HttpResponse.BodyHandlers.ofLines());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("content-type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
			Iterator<String> lines = response.body().iterator();
			this.ends.add(CompletableFuture.supplyAsync(() -> {
				while (lines.hasNext()) {
					lines.next();
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

	@Override
	public void close() {
		this.readers.shutdownNow();
	}

}
