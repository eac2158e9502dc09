package dev.lifecycle.scenarios;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.web.bind.annotation.GetMapping;
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

	/** Server-sent events, an event every 200 ms, until the drain ends the stream. */
	@GetMapping("/events")
	SseEmitter events() {
		SseEmitter emitter = new SseEmitter(0L);
		AtomicReference<ScheduledFuture<?>> ticking = new AtomicReference<>();
		ticking.set(this.ticker.scheduleAtFixedRate(() -> {
			try {
				emitter.send("tick");
			}
			catch (Exception ex) {
				ticking.get().cancel(false);
			}
		}, 0, 200, TimeUnit.MILLISECONDS));
		emitter.onCompletion(() -> ticking.get().cancel(false));
		return emitter;
	}

}
