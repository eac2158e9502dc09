package dev.lifecycle.autoconfigure;

import java.io.IOException;

import dev.lifecycle.core.LifecycleManager;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Drains connections, not only routing, on the servlet stacks (Tomcat, Jetty): from the first
 * instant of a shutdown every HTTP/1.x response carries {@code Connection: close}, so the server
 * closes the connection after the response and a keep-alive client (or kube-proxy's pinned
 * connection) reconnects, through the load balancer, to a pod that is still ready. The request
 * that carries it is served normally. Every request also counts as activity for the adaptive drain.
 */
final class ConnectionDrainFilter extends OncePerRequestFilter {

	private final LifecycleManager manager;

	private final boolean connectionClose;

	ConnectionDrainFilter(LifecycleManager manager, boolean connectionClose) {
		this.manager = manager;
		this.connectionClose = connectionClose;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		this.manager.recordActivity();
		// HTTP/2 has no Connection header: its servers end connections with GOAWAY when they stop.
		if (this.connectionClose && this.manager.isShutdownInitiated() && request.getProtocol().startsWith("HTTP/1")) {
			response.setHeader("Connection", "close");
		}
		chain.doFilter(request, response);
	}

	@Override
	protected boolean shouldNotFilterAsyncDispatch() {
		return false;
	}

}
