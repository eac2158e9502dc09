package dev.lifecycle.autoconfigure.process;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.spring.ManagedComponent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;

/**
 * A component whose thread gets stuck half a second after the application is ready: it
 * stops heartbeating and never returns, not even when told to stop or interrupted.
 * Present only with {@code process-test.stalling=true}.
 */
@ManagedComponent(value = "stalling", phase = 5, livenessDeadline = "2s")
@ConditionalOnBooleanProperty("process-test.stalling")
class StallingComponent implements ActiveComponent {

	private static final Logger logger = LoggerFactory.getLogger(StallingComponent.class);

	private final CountDownLatch ready = new CountDownLatch(1);

	@EventListener
	public void ready(ApplicationReadyEvent event) {
		this.ready.countDown();
	}

	@Override
	public void run(ComponentHandle handle) throws InterruptedException {
		handle.reportHealthy();
		this.ready.await();
		long until = System.nanoTime() + Duration.ofMillis(500).toNanos();
		while (System.nanoTime() < until) {
			handle.reportHealthy();
			Thread.sleep(50);
		}
		logger.info("stalling: last heartbeat; stuck from now on");
		while (true) {
			try {
				Thread.sleep(Long.MAX_VALUE);
			}
			catch (InterruptedException ex) {
				// Stuck on purpose: a stalled component ignores everything.
			}
		}
	}

}
