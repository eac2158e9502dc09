package dev.lifecycle.autoconfigure.web.http2;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lifecycle.autoconfigure.web.Http2Drain;
import dev.lifecycle.core.Internal;
import jakarta.servlet.http.HttpServletRequest;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.Connector;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;

/**
 * GOAWAY on Jetty, through its HTTP/2 session's graceful shutdown: a GOAWAY with the
 * highest stream id and {@code NO_ERROR} at once, then, when the streams in flight are
 * done, a GOAWAY with the last stream processed, and the connection closes. Cleartext
 * (h2c) and TLS (h2 by ALPN) connections alike.
 */
@Internal
public final class JettyHttp2Drain implements Http2Drain.Server, ApplicationListener<WebServerInitializedEvent> {

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
				if (application(endPoint.getConnection()) instanceof HTTP2Connection connection) {
					// Idempotent: a session already shutting down ignores it.
					connection.getSession().shutdown();
				}
			}
		}
	}

	/**
	 * The connection that speaks the application protocol: over TLS the connector's end
	 * point carries the TLS connection, and HTTP/2 runs on the decrypted end point inside
	 * it.
	 */
	private static @Nullable Connection application(@Nullable Connection connection) {
		Connection current = connection;
		while (current instanceof SslConnection tls) {
			current = tls.getSslEndPoint().getConnection();
		}
		return current;
	}

	@Override
	public void goAway(Object request) {
		if (request instanceof HttpServletRequest servletRequest && servletRequest.getProtocol().startsWith("HTTP/2")) {
			goAwayAll();
		}
	}

}
