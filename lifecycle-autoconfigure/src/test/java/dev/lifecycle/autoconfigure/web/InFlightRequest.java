package dev.lifecycle.autoconfigure.web;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import org.awaitility.Awaitility;

import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request that arrives before the shutdown and is answered after it began: the handler
 * says it arrived, the test begins the shutdown, the handler answers once the shutdown is
 * under way.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
public final class InFlightRequest {

	public static final String ANSWER = "late";

	private final CountDownLatch arrived = new CountDownLatch(1);

	private final LifecycleManager manager;

	public InFlightRequest(LifecycleManager manager) {
		this.manager = manager;
	}

	/**
	 * Sends the request (to {@code /in-flight}) on a keep-alive connection and begins the
	 * shutdown once it arrived: its answer carries {@code Connection: close}, keeps its
	 * length, and the server closes the connection after it.
	 */
	public static void assertAnsweredWithConnectionClose(ApplicationContext context, int port) throws IOException {
		RawHttp.Response response = assertClosedAfter(context, port, "/in-flight");
		assertThat(response.body()).isEqualTo(ANSWER);
		assertThat(response.header("content-length")).as(response.headers().toString()).isEqualTo("4");
	}

	/**
	 * Sends a request to {@code path}, whose handler answers once the shutdown began, on
	 * a keep-alive connection, begins the shutdown once it arrived, and asserts that the
	 * answer carries {@code Connection: close} and that the server closes the connection
	 * after it.
	 * @return the answer
	 */
	public static RawHttp.Response assertClosedAfter(ApplicationContext context, int port, String path)
			throws IOException {
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			context.getBean(InFlightRequest.class).shutDownOnceArrived();

			RawHttp.Response response = RawHttp.get(socket, path);

			assertThat(response.header("connection")).as(path + ": " + response.headers())
				.isEqualToIgnoringCase("close");
			assertThat(socket.getInputStream().read()).as("the server closed the connection").isEqualTo(-1);
			return response;
		}
	}

	/** Called by the handler: returns once the shutdown has begun. */
	public String answerOnceTheShutdownBegan() {
		this.arrived.countDown();
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(this.manager::isShutdownInitiated);
		return ANSWER;
	}

	/** Begins the shutdown as soon as the request has reached its handler. */
	CompletableFuture<Void> shutDownOnceArrived() {
		return CompletableFuture.runAsync(() -> {
			try {
				if (this.arrived.await(10, TimeUnit.SECONDS)) {
					this.manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
	}

}
