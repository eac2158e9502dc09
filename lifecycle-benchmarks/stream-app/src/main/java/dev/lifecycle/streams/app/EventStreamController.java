package dev.lifecycle.streams.app;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code GET /sse}: one event a second, its {@code id:} and data the second's epoch
 * value. A new stream starts at the current second; one opened with
 * {@code Last-Event-ID: n} gets every id from n + 1 to the current second at once (at
 * most {@link #MAX_REPLAY} of them), then one a second: a client that resumes by id
 * receives every id exactly once whichever instance it lands on. Lifecycle ends the
 * stream when the streams end (the client reconnects); plain Spring Boot holds it until
 * its graceful shutdown times out.
 */
@RestController
public class EventStreamController {

	/** Longest life of one stream when nothing ends it earlier. */
	static final Duration STREAM_TIMEOUT = Duration.ofMinutes(30);

	/** The most events replayed to a resuming client (10 minutes' worth). */
	static final long MAX_REPLAY = 600;

	private final String instance;

	private final Set<Stream> streams = ConcurrentHashMap.newKeySet();

	public EventStreamController(Ticker ticker, @Value("${stream.instance}") String instance) {
		this.instance = instance;
		ticker.onTick((second) -> this.streams.forEach((stream) -> stream.sendUpTo(second)));
	}

	@GetMapping(path = "/sse", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	public SseEmitter sse(@RequestHeader(name = "Last-Event-ID", required = false) String lastEventId,
			HttpServletResponse response) {
		response.setHeader("X-Instance", this.instance);
		long now = Ticker.second();
		long last = now - 1;
		if (lastEventId != null) {
			try {
				last = Math.max(Long.parseLong(lastEventId.trim()), now - MAX_REPLAY);
			}
			catch (NumberFormatException ex) {
				// Not one of ours: start at the current second.
			}
		}
		SseEmitter emitter = new SseEmitter(STREAM_TIMEOUT.toMillis());
		Stream stream = new Stream(emitter, last);
		emitter.onCompletion(() -> this.streams.remove(stream));
		emitter.onTimeout(() -> {
			this.streams.remove(stream);
			emitter.complete();
		});
		emitter.onError((ex) -> this.streams.remove(stream));
		this.streams.add(stream);
		stream.sendUpTo(now);
		return emitter;
	}

	/** One open stream and the last id sent on it. */
	private final class Stream {

		private final SseEmitter emitter;

		private long lastSent;

		private boolean ended;

		Stream(SseEmitter emitter, long lastSent) {
			this.emitter = emitter;
			this.lastSent = lastSent;
		}

		/** Sends every id after the last one sent up to {@code second}, in order. */
		synchronized void sendUpTo(long second) {
			while (!this.ended && this.lastSent < second) {
				long id = this.lastSent + 1;
				try {
					this.emitter.send(SseEmitter.event().id(Long.toString(id)).data(id));
					this.lastSent = id;
				}
				catch (IOException | IllegalStateException ex) {
					// The stream has ended (the client left, or the server ended it).
					this.ended = true;
					EventStreamController.this.streams.remove(this);
				}
			}
		}

	}

}
