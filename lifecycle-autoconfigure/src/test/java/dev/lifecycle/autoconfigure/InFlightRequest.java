package dev.lifecycle.autoconfigure;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import org.awaitility.Awaitility;

/**
 * A request that arrives before the shutdown and is answered after it began: the handler says it
 * arrived, the test begins the shutdown, the handler answers once the shutdown is under way.
 */
final class InFlightRequest {

	static final String ANSWER = "late";

	private final CountDownLatch arrived = new CountDownLatch(1);

	private final LifecycleManager manager;

	InFlightRequest(LifecycleManager manager) {
		this.manager = manager;
	}

	/** Called by the handler: returns once the shutdown has begun. */
	String answerOnceTheShutdownBegan() {
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
