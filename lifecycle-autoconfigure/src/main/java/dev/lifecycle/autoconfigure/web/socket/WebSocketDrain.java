package dev.lifecycle.autoconfigure.web.socket;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import dev.lifecycle.autoconfigure.web.StreamDrain;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The open WebSocket sessions of one web stack, closed with 1001 "going away" when the
 * {@link StreamDrain} ends the long-lived streams, so that a WebSocket never holds the
 * web server's graceful shutdown and its client reconnects elsewhere. A session that
 * opens after that point is closed at once.
 *
 * @param <S> the stack's session type
 */
final class WebSocketDrain<S> {

	private static final Log logger = LogFactory.getLog(WebSocketDrain.class);

	private final Set<S> open = ConcurrentHashMap.newKeySet();

	private final StreamDrain streams;

	private final Consumer<S> goingAway;

	WebSocketDrain(StreamDrain streams, Consumer<S> goingAway) {
		this.streams = streams;
		this.goingAway = goingAway;
		streams.registerSessions(this::closeAll);
	}

	void opened(S session) {
		this.open.add(session);
		if (this.streams.isEnded()) {
			close(session);
		}
	}

	void closed(S session) {
		this.open.remove(session);
	}

	private void closeAll() {
		if (!this.open.isEmpty()) {
			logger.info("Lifecycle: closing " + this.open.size() + " WebSocket session(s) with 1001 going away");
		}
		this.open.forEach(this::close);
	}

	private void close(S session) {
		if (!this.open.remove(session)) {
			return;
		}
		try {
			this.goingAway.accept(session);
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: could not close a WebSocket session with 1001; the web server closes it when "
					+ "it stops", ex);
		}
	}

}
