package dev.lifecycle.autoconfigure.web.socket;

import dev.lifecycle.autoconfigure.LifecycleStreamsProperties.WebSocketCloseCode;
import dev.lifecycle.autoconfigure.web.StreamDrain;
import dev.lifecycle.core.Internal;
import jakarta.servlet.ServletContext;
import jakarta.websocket.server.ServerContainer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;
import org.springframework.web.context.ServletContextAware;

/**
 * Closes the sessions of plain Jakarta WebSocket endpoints ({@code @ServerEndpoint},
 * {@code ServerEndpointConfig}) with 1001 "going away" when the long-lived streams end,
 * through the web server's own container (Tomcat's closes every session it holds, Jetty's
 * lists them). Neither tells of sessions as they open, so one opened after that point
 * closes when the server stops. It runs after every other session and stream has ended,
 * because Tomcat's also closes the WebSocket under a SockJS session.
 */
@Internal
public final class JakartaWebSocketDrain implements ServletContextAware {

	private static final Log logger = LogFactory.getLog(JakartaWebSocketDrain.class);

	private static final boolean TOMCAT = ClassUtils.isPresent("org.apache.tomcat.websocket.WsWebSocketContainer",
			JakartaWebSocketDrain.class.getClassLoader());

	private static final boolean JETTY = ClassUtils.isPresent(
			"org.eclipse.jetty.ee11.websocket.jakarta.common.JakartaWebSocketContainer",
			JakartaWebSocketDrain.class.getClassLoader());

	private volatile @Nullable ServletContext servletContext;

	private final WebSocketCloseCode closeCode;

	JakartaWebSocketDrain(StreamDrain streams, WebSocketCloseCode closeCode) {
		this.closeCode = closeCode;
		streams.registerServer(this::closeAll);
	}

	@Override
	public void setServletContext(ServletContext servletContext) {
		this.servletContext = servletContext;
	}

	private void closeAll() {
		ServletContext context = this.servletContext;
		Object container = (context != null) ? context.getAttribute(ServerContainer.class.getName()) : null;
		try {
			if (TOMCAT && TomcatWebSocketSessions.closeAll(container)) {
				return;
			}
			if (JETTY) {
				JettyWebSocketSessions.closeAll(container, this.closeCode);
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: could not close the Jakarta WebSocket sessions with " + this.closeCode
					+ "; the web server closes them when it stops", ex);
		}
	}

}
