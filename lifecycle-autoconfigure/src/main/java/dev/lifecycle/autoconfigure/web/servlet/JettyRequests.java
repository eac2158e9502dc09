package dev.lifecycle.autoconfigure.web.servlet;

import java.util.List;

import dev.lifecycle.autoconfigure.InternalHooks;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import org.eclipse.jetty.ee11.servlet.ServletChannel;
import org.eclipse.jetty.ee11.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What Jetty tells about a request, and what it is asked: whether its HTTP/1.1 connection
 * holds another request, the largest write Jetty buffers, and to abort a response the web
 * server's stop cuts. Loaded only when Jetty's servlet support is present, so that no
 * other class names Jetty's types. The first reads Jetty's connection, a type of its
 * internal package: a hook resolved once, when the drain filter is created
 * ({@link PipelinedServletRequests#JETTY_HOOK}).
 */
final class JettyRequests {

	private JettyRequests() {
	}

	/**
	 * Resolves the hook into Jetty's connection.
	 * @return whether it resolved
	 */
	static boolean resolve(InternalHooks hooks) {
		return hooks.resolve(PipelinedServletRequests.JETTY_HOOK,
				() -> InternalHooks.method(HttpConnection.class, "isRequestBufferEmpty", boolean.class)) != null;
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

	/**
	 * Aborts the request's response and closes its connection before the body's end, so
	 * its client sees a broken response, where Jetty's stop would end the body as if it
	 * were whole. Over HTTP/2 the connection's other streams are cut too: the stop that
	 * comes next cuts them anyway.
	 * @param request the servlet request
	 * @param cause why, for Jetty's log
	 */
	static void abort(HttpServletRequest request, Throwable cause) {
		ServletContextRequest jetty = ServletContextRequest.getServletContextRequest(request);
		if (jetty != null) {
			ServletChannel channel = jetty.getServletChannel();
			channel.abort(cause);
			// The abort alone fails the response only once the application's dispatch
			// ends, and the stop may end the body as whole before that.
			EndPoint endPoint = channel.getEndPoint();
			if (endPoint != null) {
				endPoint.close(cause);
			}
		}
	}

	/** The method looked up by reflection, for a native image. */
	public static final class Hints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			hints.reflection()
				.registerType(TypeReference.of("org.eclipse.jetty.server.internal.HttpConnection"),
						(type) -> type.withMethod("isRequestBufferEmpty", List.of(), ExecutableMode.INTROSPECT));
		}

	}

}
