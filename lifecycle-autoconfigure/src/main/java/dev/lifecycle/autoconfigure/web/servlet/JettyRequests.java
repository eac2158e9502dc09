package dev.lifecycle.autoconfigure.web.servlet;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import org.eclipse.jetty.ee11.servlet.ServletContextRequest;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.jspecify.annotations.Nullable;

/**
 * What Jetty's public types tell about a request: whether its HTTP/1.1 connection holds another
 * request, and the largest write Jetty buffers. Loaded only when Jetty's servlet support is
 * present, so that no other class names Jetty's types.
 */
final class JettyRequests {

	private JettyRequests() {
	}

	/**
	 * Whether Jetty's request buffer holds another request on this one's connection.
	 * @param request the servlet request
	 * @return {@code true} only when Jetty is known to hold a further request
	 */
	static boolean pipelined(ServletRequest request) {
		ServletContextRequest jetty = ServletContextRequest.getServletContextRequest(request);
		return jetty != null && jetty.getConnectionMetaData().getConnection() instanceof HttpConnection connection
				&& !connection.isRequestBufferEmpty();
	}

	/**
	 * Jetty's output aggregation size: a write larger than it goes straight through.
	 * @param request the servlet request
	 * @return the size, or {@code null} when the request is not Jetty's
	 */
	static @Nullable Integer aggregationSize(HttpServletRequest request) {
		ServletContextRequest jetty = ServletContextRequest.getServletContextRequest(request);
		return (jetty != null) ? jetty.getServletChannel().getHttpConfiguration().getOutputAggregationSize() : null;
	}

}
