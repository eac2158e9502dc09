package dev.lifecycle.scenarios;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The HTTP endpoints on a servlet stack (Tomcat, Jetty): answered on the request's
 * thread.
 */
@RestController
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class ServletEndpoints {

	private static final Logger logger = LoggerFactory.getLogger(ServletEndpoints.class);

	private final BackgroundWork work;

	private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "scenario-events");
		thread.setDaemon(true);
		return thread;
	});

	ServletEndpoints(BackgroundWork work) {
		this.work = work;
	}

	@GetMapping("/hello")
	String hello() {
		return "hello";
	}

	@GetMapping("/slow")
	String slow(@RequestParam long millis) throws InterruptedException {
		if (millis >= 1000) {
			logger.info("scenario: slow request of {} ms received", millis);
		}
		Thread.sleep(millis);
		return "slept " + millis + " ms";
	}

	@GetMapping("/async")
	String async(@RequestParam String id) {
		this.work.run(id);
		return "accepted " + id;
	}

	/**
	 * Server-sent events, an event every 200 ms, until the drain ends the stream. Event
	 * {@code n} is {@code tick n} with the id {@code n} on every instance, so a client
	 * resumes with {@code Last-Event-ID} wherever it reconnects: the stream goes on after
	 * that id.
	 */
	@GetMapping("/events")
	SseEmitter events(@RequestHeader(name = "Last-Event-ID", required = false) @Nullable Long lastEventId) {
		SseEmitter emitter = new SseEmitter(0L);
		AtomicLong next = new AtomicLong((lastEventId != null) ? lastEventId + 1 : 0);
		AtomicReference<ScheduledFuture<?>> ticking = new AtomicReference<>();
		ticking.set(this.ticker.scheduleAtFixedRate(() -> {
			try {
				long id = next.getAndIncrement();
				emitter.send(SseEmitter.event().id(Long.toString(id)).data("tick " + id));
			}
			catch (Exception ex) {
				ticking.get().cancel(false);
			}
		}, 0, 200, TimeUnit.MILLISECONDS));
		emitter.onCompletion(() -> ticking.get().cancel(false));
		return emitter;
	}

}
