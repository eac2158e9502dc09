package dev.lifecycle.scenarios;

import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Work on Spring Boot's own executor and scheduler: an {@code @Async} task per request,
 * and a tick every 100 ms. Each logs what the suite counts.
 */
@Component
public class BackgroundWork {

	private static final Logger logger = LoggerFactory.getLogger(BackgroundWork.class);

	private final AtomicInteger ticks = new AtomicInteger();

	@Scheduled(fixedRate = 100)
	public void tick() {
		logger.info("scenario: tick {}", this.ticks.incrementAndGet());
	}

	@Async
	public void run(String id) {
		try {
			Thread.sleep(200);
			logger.info("scenario: async {} done on {} (virtual={})", id, Thread.currentThread().getName(),
					Threads.isVirtual(Thread.currentThread()));
		}
		catch (InterruptedException ex) {
			logger.info("scenario: async {} interrupted", id);
		}
	}

}
