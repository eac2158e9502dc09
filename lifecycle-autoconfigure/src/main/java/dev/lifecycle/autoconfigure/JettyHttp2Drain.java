package dev.lifecycle.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.http.HttpServletRequest;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;

import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;

/**
 * GOAWAY on Jetty, through its HTTP/2 session's graceful shutdown: a GOAWAY with the highest
 * stream id and {@code NO_ERROR} at once, then, when the streams in flight are done, a GOAWAY with
 * the last stream processed, and the connection closes.
 */
final class JettyHttp2Drain implements Http2Drain.Server, ApplicationListener<WebServerInitializedEvent> {

	private final List<Connector> connectors = new CopyOnWriteArrayList<>();

	JettyHttp2Drain(Http2Drain drain) {
		drain.register(this);
	}

	@Override
	public void onApplicationEvent(WebServerInitializedEvent event) {
		if (event.getWebServer() instanceof JettyWebServer server) {
			this.connectors.addAll(List.of(server.getServer().getConnectors()));
		}
	}

	@Override
	public void goAwayAll() {
		for (Connector connector : this.connectors) {
			for (EndPoint endPoint : connector.getConnectedEndPoints()) {
				if (endPoint.getConnection() instanceof HTTP2Connection connection) {
					// Idempotent: a session already shutting down ignores it.
					connection.getSession().shutdown();
				}
			}
		}
	}

	@Override
	public void goAway(Object request) {
		if (request instanceof HttpServletRequest servletRequest && servletRequest.getProtocol().startsWith("HTTP/2")) {
			goAwayAll();
		}
	}

}
