package dev.lifecycle.autoconfigure.web.socket;

import java.io.IOException;

import dev.lifecycle.autoconfigure.LifecycleStreamsProperties.WebSocketCloseCode;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Session;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Jetty's open Jakarta WebSocket sessions; loaded only when Jetty's Jakarta WebSocket
 * support is present, so that no other class names Jetty's types.
 */
final class JettyWebSocketSessions {

	private static final Log logger = LogFactory.getLog(JakartaWebSocketDrain.class);

	private JettyWebSocketSessions() {
	}

	/**
	 * Closes every open session of Jetty's container with the given code.
	 * @param container the servlet context's WebSocket container
	 * @param closeCode the close code
	 */
	static void closeAll(@Nullable Object container, WebSocketCloseCode closeCode) {
		CloseReason reason = new CloseReason(CloseReason.CloseCodes.getCloseCode(closeCode.code()), "shutting down");
		if (container instanceof org.eclipse.jetty.ee11.websocket.jakarta.common.JakartaWebSocketContainer jetty) {
			int count = 0;
			for (Session session : jetty.getOpenSessions()) {
				try {
					session.close(reason);
					count++;
				}
				catch (IOException ex) {
					logger.debug("Lifecycle: a Jakarta WebSocket session did not close", ex);
				}
			}
			if (count > 0) {
				logger.info("Lifecycle: closed " + count + " Jakarta WebSocket session(s) with " + closeCode);
			}
		}
	}

}
