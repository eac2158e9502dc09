package dev.lifecycle.scenarios;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
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

	/**
	 * Server-sent events, an event every 200 ms, until the drain ends the stream. Event
	 * {@code n} is {@code tick n} with the id {@code n} on every instance, so a client
	 * resumes with {@code Last-Event-ID} wherever it reconnects: the stream goes on after
	 * that id. An id is taken only by an event that is sent, so a tick dropped for a slow
	 * client leaves no gap.
	 */
	@GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	Flux<ServerSentEvent<String>> events(
			@RequestHeader(name = "Last-Event-ID", required = false) @Nullable Long lastEventId) {
		AtomicLong next = new AtomicLong((lastEventId != null) ? lastEventId + 1 : 0);
		return Flux.interval(Duration.ZERO, Duration.ofMillis(200)).onBackpressureDrop().map((tick) -> {
			long id = next.getAndIncrement();
			return ServerSentEvent.builder("tick " + id).id(Long.toString(id)).build();
		});
	}

}
