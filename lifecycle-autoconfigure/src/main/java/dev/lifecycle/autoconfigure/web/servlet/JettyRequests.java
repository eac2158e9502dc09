package dev.lifecycle.autoconfigure.web.servlet;

import java.util.List;

import dev.lifecycle.autoconfigure.InternalHooks;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import org.eclipse.jetty.ee11.servlet.ServletContextRequest;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What Jetty tells about a request: whether its HTTP/1.1 connection holds another
 * request, and the largest write Jetty buffers. Loaded only when Jetty's servlet support
 * is present, so that no other class names Jetty's types. The first reads Jetty's
 * connection, a type of its internal package: a hook resolved once, when the drain filter
 * is created ({@link PipelinedServletRequests#JETTY_HOOK}).
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
