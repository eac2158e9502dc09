package dev.lifecycle.autoconfigure.web.servlet;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.ClassUtils;

/**
 * Whether the servlet container has already read another request on this one's connection. A
 * server must not process a request that follows {@code Connection: close}, so the drain says
 * {@code close} only on the last request of a pipeline and every request before it is served. Each
 * server answers in its own class ({@link TomcatRequests}, {@link JettyRequests}); where the answer
 * cannot be had it is {@code false}: the connection closes after this response, as without
 * pipelining.
 */
final class PipelinedServletRequests {

	private static final Log logger = LogFactory.getLog(PipelinedServletRequests.class);

	private static final ClassLoader LOADER = PipelinedServletRequests.class.getClassLoader();

	private static final boolean TOMCAT = ClassUtils.isPresent("org.apache.catalina.connector.RequestFacade", LOADER)
			&& ClassUtils.isPresent("org.apache.coyote.http11.Http11InputBuffer", LOADER);

	private static final boolean JETTY = ClassUtils.isPresent("org.eclipse.jetty.ee11.servlet.ServletContextRequest",
			LOADER) && ClassUtils.isPresent("org.eclipse.jetty.server.internal.HttpConnection", LOADER);

	private PipelinedServletRequests() {
	}

	/**
	 * Whether another request already follows this one on its connection.
	 * @param request the servlet request
	 * @return {@code true} only when the server is known to hold a further request
	 */
	static boolean follow(ServletRequest request) {
		try {
			ServletRequest current = request;
			while (current instanceof ServletRequestWrapper wrapper) {
				current = wrapper.getRequest();
			}
			return (TOMCAT && TomcatRequests.pipelined(current)) || (JETTY && JettyRequests.pipelined(request));
		}
		catch (RuntimeException | LinkageError ex) {
			logger.debug("Lifecycle: cannot tell whether requests are pipelined after this one", ex);
			return false;
		}
	}

}
