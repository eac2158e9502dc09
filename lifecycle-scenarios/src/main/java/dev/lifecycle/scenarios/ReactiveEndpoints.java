package dev.lifecycle.scenarios;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The same HTTP endpoints on WebFlux: {@code /hello} answers on the thread that read the
 * request, {@code /slow} later, on a timer's thread.
 */
@RestController
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class ReactiveEndpoints {

	private static final Logger logger = LoggerFactory.getLogger(ReactiveEndpoints.class);

	private final BackgroundWork work;

	ReactiveEndpoints(BackgroundWork work) {
		this.work = work;
	}

	@GetMapping("/hello")
	String hello() {
		return "hello";
	}

	@GetMapping("/slow")
	Mono<String> slow(@RequestParam long millis) {
		if (millis >= 1000) {
			logger.info("scenario: slow request of {} ms received", millis);
		}
		return Mono.delay(Duration.ofMillis(millis)).map((tick) -> "slept " + millis + " ms");
	}

	@GetMapping("/async")
	String async(@RequestParam String id) {
		this.work.run(id);
		return "accepted " + id;
	}

	/** Server-sent events, an event every 200 ms, until the drain ends the stream. */
	@GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	Flux<String> events() {
		return Flux.interval(Duration.ZERO, Duration.ofMillis(200)).onBackpressureDrop().map((tick) -> "tick");
	}

}
