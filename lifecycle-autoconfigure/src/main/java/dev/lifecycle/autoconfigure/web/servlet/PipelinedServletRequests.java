package dev.lifecycle.autoconfigure.web.servlet;

import dev.lifecycle.autoconfigure.InternalHooks;
import jakarta.servlet.ServletRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Whether the servlet container has already read another request on this one's
 * connection. A server must not process a request that follows {@code Connection: close},
 * so the drain says {@code close} only on the last request of a pipeline and every
 * request before it is served. Each server answers in its own class
 * ({@link TomcatRequests}, {@link JettyRequests}), through a hook resolved once when the
 * drain filter is created; where the answer cannot be had it is {@code false}: the
 * connection closes after this response, as without pipelining.
 */
final class PipelinedServletRequests {

	private static final Log logger = LogFactory.getLog(PipelinedServletRequests.class);

	static final InternalHooks.Point TOMCAT_HOOK = new InternalHooks.Point("tomcat.pipelining",
			"Tomcat's RequestFacade.request, Http11InputBuffer.activeFilters and .lastActiveFilter, "
					+ "IdentityInputFilter.remaining (private fields)",
			"'Connection: close' only on the last request of an HTTP/1.1 pipeline on Tomcat",
			"During the drain every response on Tomcat says close, and a request pipelined behind it on "
					+ "the same connection is not served (its client retries it). Use the Tomcat version "
					+ "Spring Boot manages (Tomcat 11.0).");

	static final InternalHooks.Point JETTY_HOOK = new InternalHooks.Point("jetty.pipelining",
			"Jetty's org.eclipse.jetty.server.internal.HttpConnection.isRequestBufferEmpty() (internal package)",
			"'Connection: close' only on the last request of an HTTP/1.1 pipeline on Jetty",
			"During the drain every response on Jetty says close, and a request pipelined behind it on the "
					+ "same connection is not served (its client retries it). Use the Jetty version Spring Boot "
					+ "manages (Jetty 12.1).");

	private static final ClassLoader LOADER = PipelinedServletRequests.class.getClassLoader();

	// Whether each server is on the class path at all; its internals are the hooks'.
	private static final boolean TOMCAT = ClassUtils.isPresent("org.apache.catalina.connector.RequestFacade", LOADER);

	private static final boolean JETTY = ClassUtils.isPresent("org.eclipse.jetty.ee11.servlet.ServletContextRequest",
			LOADER);

	private final @Nullable TomcatRequests tomcat;

	private final boolean jetty;

	PipelinedServletRequests(@Nullable TomcatRequests tomcat, boolean jetty) {
		this.tomcat = tomcat;
		this.jetty = jetty;
	}

	/** Resolves each server's hook, once, for the drain filter. */
	static PipelinedServletRequests resolve(InternalHooks hooks) {
		TomcatRequests tomcat = null;
		if (TOMCAT) {
			tomcat = TomcatRequests.resolve(hooks);
		}
		else {
			hooks.notApplicable(TOMCAT_HOOK, "Tomcat is not on the class path");
		}
		boolean jetty = false;
		if (JETTY) {
			jetty = JettyRequests.resolve(hooks);
		}
		else {
			hooks.notApplicable(JETTY_HOOK, "Jetty's servlet support is not on the class path");
		}
		return new PipelinedServletRequests(tomcat, jetty);
	}

	/**
	 * Whether another request already follows this one on its connection.
	 * @param request the servlet request
	 * @return {@code true} only when the server is known to hold a further request
	 */
	boolean follow(ServletRequest request) {
		try {
			ServletRequest current = ContainerRequests.unwrap(request);
			TomcatRequests tomcat = this.tomcat;
			return (tomcat != null && tomcat.pipelined(current)) || (this.jetty && JettyRequests.pipelined(request));
		}
		catch (RuntimeException | LinkageError ex) {
			logger.debug("Lifecycle: cannot tell whether requests are pipelined after this one", ex);
			return false;
		}
	}

}
