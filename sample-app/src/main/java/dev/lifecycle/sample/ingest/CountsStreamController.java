package dev.lifecycle.sample.ingest;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.sample.pipeline.Pipeline;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code GET /counts/stream}: a server-sent event stream ({@code text/event-stream}) of
 * the pipeline's progress, one {@code offset} event a second carrying the last processed
 * log offset (the number of events counted so far). A long-lived response like a
 * dashboard's: Lifecycle ends it at the end of the drain delay
 * ({@code lifecycle.streams.end-at}), so it never holds the web server's graceful
 * shutdown; the client reconnects through its load balancer to an instance that is still
 * ready.
 */
@RestController
public class CountsStreamController implements DisposableBean {

	/** Longest life of one stream when nothing ends it earlier; clients reconnect. */
	static final Duration STREAM_TIMEOUT = Duration.ofMinutes(30);

	private final Pipeline pipeline;

	private final Set<SseEmitter> emitters = ConcurrentHashMap.newKeySet();

	private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "counts-stream");
		thread.setDaemon(true);
		return thread;
	});

	public CountsStreamController(Pipeline pipeline) {
		this.pipeline = pipeline;
		this.ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
	}

	/**
	 * Opens a stream; the first event is sent at once.
	 * @return the emitter Spring MVC streams from
	 */
	@GetMapping(path = "/counts/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	public SseEmitter stream() {
		SseEmitter emitter = new SseEmitter(STREAM_TIMEOUT.toMillis());
		emitter.onCompletion(() -> this.emitters.remove(emitter));
		emitter.onTimeout(() -> {
			this.emitters.remove(emitter);
			emitter.complete();
		});
		emitter.onError((ex) -> this.emitters.remove(emitter));
		this.emitters.add(emitter);
		send(emitter, this.pipeline.offset());
		return emitter;
	}

	private void tick() {
		long offset = this.pipeline.offset();
		this.emitters.forEach((emitter) -> send(emitter, offset));
	}

	private void send(SseEmitter emitter, long offset) {
		try {
			emitter.send(SseEmitter.event().name("offset").data(offset));
		}
		catch (IOException | IllegalStateException ex) {
			// The stream has ended (the client left, or the server ended it): nothing
			// more to send.
			this.emitters.remove(emitter);
		}
	}

	@Override
	public void destroy() {
		this.ticker.shutdownNow();
	}

}
