package dev.lifecycle.autoconfigure.web.socket;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import dev.lifecycle.autoconfigure.LifecycleStreamsProperties.WebSocketCloseCode;
import dev.lifecycle.autoconfigure.web.StreamDrain;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The open WebSocket sessions of one web stack, closed with the configured code when the
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

	private final WebSocketCloseCode closeCode;

	private final Consumer<S> closing;

	WebSocketDrain(StreamDrain streams, WebSocketCloseCode closeCode, Consumer<S> closing) {
		this.streams = streams;
		this.closeCode = closeCode;
		this.closing = closing;
		streams.registerSessions(this::openSessions);
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

	private List<Runnable> openSessions() {
		return this.open.stream().map((session) -> (Runnable) () -> close(session)).toList();
	}

	private void close(S session) {
		if (!this.open.remove(session)) {
			return;
		}
		try {
			this.closing.accept(session);
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: could not close a WebSocket session with " + this.closeCode
					+ "; the web server closes it when it stops", ex);
		}
	}

}
