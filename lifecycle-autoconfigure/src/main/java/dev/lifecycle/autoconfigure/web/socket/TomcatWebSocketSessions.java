package dev.lifecycle.autoconfigure.web.socket;

import org.jspecify.annotations.Nullable;

/**
 * Tomcat's end of its Jakarta WebSocket sessions; loaded only when Tomcat's WebSocket
 * support is present, so that no other class names Tomcat's types.
 */
final class TomcatWebSocketSessions {

	private TomcatWebSocketSessions() {
	}

	/**
	 * Closes every session of Tomcat's container with 1001; the container stays usable,
	 * and the sessions of Spring's WebSocket handlers on Tomcat are among them.
	 * @param container the servlet context's WebSocket container
	 * @return whether the container was Tomcat's
	 */
	static boolean closeAll(@Nullable Object container) {
		if (container instanceof org.apache.tomcat.websocket.WsWebSocketContainer tomcat) {
			tomcat.destroy();
			return true;
		}
		return false;
	}

}
