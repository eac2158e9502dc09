package dev.lifecycle.autoconfigure.web.servlet;

import java.io.IOException;
import java.util.function.BooleanSupplier;

import dev.lifecycle.autoconfigure.web.Http2Drain;
import dev.lifecycle.autoconfigure.web.StreamDrain;
import dev.lifecycle.core.LifecycleManager;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Drains connections, not only routing, on the servlet stacks (Tomcat, Jetty): from the
 * first instant of a shutdown every HTTP/1.x response carries {@code Connection: close},
 * whenever its request arrived ({@link ClosingResponse}), so a keep-alive client
 * reconnects through the load balancer to a ready pod instead of meeting the stopping
 * server at the drain's end; HTTP/2 gets a GOAWAY instead ({@link Http2Drain}). Requests
 * are metered by {@link ServletTraffic}, and streaming responses end when the
 * {@link StreamDrain} says so ({@link AsyncResponses}), so none holds the graceful
 * shutdown. Details: {@code docs/connection-drain.md}.
 */
final class ConnectionDrainFilter extends OncePerRequestFilter {

	private final LifecycleManager manager;

	private final boolean connectionClose;

	private final ServletTraffic traffic;

	private final AsyncResponses responses;

	private final Http2Drain http2;

	private final PipelinedServletRequests pipelines;

	/** Made once: each request's response reads it. */
	private final BooleanSupplier shuttingDown;

	/** See {@link #getAlreadyFilteredAttributeName()}. */
	private volatile @Nullable String alreadyFiltered;

	ConnectionDrainFilter(LifecycleManager manager, boolean connectionClose, ServletTraffic traffic,
			StreamDrain streams, Http2Drain http2, PipelinedServletRequests pipelines) {
		this.manager = manager;
		this.connectionClose = connectionClose;
		this.traffic = traffic;
		this.responses = new AsyncResponses(streams);
		this.http2 = http2;
		this.pipelines = pipelines;
		this.shuttingDown = manager::isShutdownInitiated;
	}

	/**
	 * The name of the request attribute that marks this filter as passed, made once: the
	 * filter's name is settled when it is first asked, once the filter is initialised.
	 */
	@Override
	protected String getAlreadyFilteredAttributeName() {
		String name = this.alreadyFiltered;
		if (name == null) {
			name = super.getAlreadyFilteredAttributeName();
			this.alreadyFiltered = name;
		}
		return name;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		// The error page of a request already seen is not a request of its own; its body
		// is framed like any other.
		boolean first = request.getDispatcherType() != DispatcherType.ERROR;
		if (first && this.manager.isShutdownInitiated()) {
			this.traffic.arrived(request);
			// HTTP/2 has no Connection header: its connection gets a GOAWAY instead,
			// before the response and again after it, in case the server could not reach
			// the connection then.
			this.http2.onRequest(request);
		}
		HttpServletResponse served = drainsConnection(request)
				? new ClosingResponse(response, request, this.shuttingDown, this.pipelines) : response;
		boolean arrival = request.getDispatcherType() == DispatcherType.REQUEST;
		if (arrival) {
			this.traffic.began(request);
		}
		try {
			chain.doFilter(request, served);
		}
		catch (IOException | ServletException | RuntimeException | Error ex) {
			// The container answers it with a server error.
			this.traffic.failed(request);
			throw ex;
		}
		finally {
			if (!request.isAsyncStarted()) {
				this.traffic.ended(request);
			}
		}
		if (request.isAsyncStarted()) {
			if (arrival) {
				this.traffic.endsWith(request.getAsyncContext(), request);
			}
			this.responses.track(request.getAsyncContext(), served);
		}
		else {
			this.traffic.answered(request, response.getStatus());
			if (served instanceof ClosingResponse closing) {
				closing.closeIfShuttingDown();
			}
		}
		if (first && this.manager.isShutdownInitiated()) {
			this.http2.onRequest(request);
		}
	}

	/**
	 * Whether this request's connection is drained with {@code Connection: close}: an
	 * HTTP/1.x one that is not a WebSocket upgrade, whose socket ends with the streams
	 * instead. An offer of h2c the server does not take is answered in HTTP/1.1 like any
	 * request.
	 */
	private boolean drainsConnection(HttpServletRequest request) {
		return this.connectionClose && request.getProtocol().startsWith("HTTP/1")
				&& !"websocket".equalsIgnoreCase(request.getHeader("Upgrade"));
	}

	/** How many asynchronous responses are tracked: those still open. */
	int tracked() {
		return this.responses.tracked();
	}

	@Override
	protected boolean shouldNotFilterAsyncDispatch() {
		return false;
	}

	@Override
	protected boolean shouldNotFilterErrorDispatch() {
		return false;
	}

}
