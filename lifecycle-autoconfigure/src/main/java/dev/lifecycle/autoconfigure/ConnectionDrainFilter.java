package dev.lifecycle.autoconfigure;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.lifecycle.core.LifecycleManager;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Drains connections, not only routing, on the servlet stacks (Tomcat, Jetty): from the first
 * instant of a shutdown every HTTP/1.x response carries {@code Connection: close}, so the server
 * closes the connection after the response and a keep-alive client (or kube-proxy's pinned
 * connection) reconnects, through the load balancer, to a pod that is still ready. The request
 * that carries it is served normally. An HTTP/2 request gets a GOAWAY on its connection instead
 * ({@link Http2Drain}). Every request also counts as activity for the adaptive drain.
 *
 * <p>It also tracks asynchronous responses (server-sent events, streaming, long polling) and
 * completes them when the {@link StreamDrain} says so, so that they never hold the web server's
 * graceful shutdown.
 */
final class ConnectionDrainFilter extends OncePerRequestFilter {

	private final LifecycleManager manager;

	private final boolean connectionClose;

	private final StreamDrain streams;

	private final Http2Drain http2;

	private final Set<AsyncContext> open = ConcurrentHashMap.newKeySet();

	ConnectionDrainFilter(LifecycleManager manager, boolean connectionClose, StreamDrain streams, Http2Drain http2) {
		this.manager = manager;
		this.connectionClose = connectionClose;
		this.streams = streams;
		this.http2 = http2;
		streams.register(this::endStreams);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		this.manager.recordActivity();
		boolean shuttingDown = this.manager.isShutdownInitiated();
		// An upgrade (WebSocket) keeps its connection: the socket ends with the streams instead.
		if (this.connectionClose && shuttingDown && request.getProtocol().startsWith("HTTP/1")
				&& request.getHeader("Upgrade") == null) {
			response.setHeader("Connection", "close");
			response = new ClosingResponse(response, "HEAD".equals(request.getMethod()));
		}
		// HTTP/2 has no Connection header: its connection gets a GOAWAY instead, before the
		// response and again after it, in case the server could not reach the connection then.
		this.http2.onRequest(request);
		chain.doFilter(request, response);
		if (shuttingDown) {
			this.http2.onRequest(request);
		}
		if (request.isAsyncStarted()) {
			track(request.getAsyncContext());
		}
	}

	private void track(AsyncContext context) {
		if (!this.open.add(context)) {
			return;
		}
		context.addListener(new AsyncListener() {
			@Override
			public void onComplete(AsyncEvent event) {
				ConnectionDrainFilter.this.open.remove(context);
			}

			@Override
			public void onTimeout(AsyncEvent event) {
				ConnectionDrainFilter.this.open.remove(context);
			}

			@Override
			public void onError(AsyncEvent event) {
				ConnectionDrainFilter.this.open.remove(context);
			}

			@Override
			public void onStartAsync(AsyncEvent event) {
			}
		});
		if (this.streams.isEnded()) {
			complete(context);
		}
	}

	private void endStreams() {
		this.open.forEach(this::complete);
	}

	private void complete(AsyncContext context) {
		this.open.remove(context);
		try {
			context.complete();
		}
		catch (IllegalStateException ex) {
			// Already completed by the application: nothing to end.
		}
	}

	/** A response that carries {@code Connection: close}: its framing is decided when its body begins. */
	private static final class ClosingResponse extends HttpServletResponseWrapper {

		private final boolean head;

		private boolean framed;

		ClosingResponse(HttpServletResponse response, boolean head) {
			super(response);
			this.head = head;
		}

		@Override
		public ServletOutputStream getOutputStream() throws IOException {
			frame();
			return super.getOutputStream();
		}

		@Override
		public PrintWriter getWriter() throws IOException {
			frame();
			return super.getWriter();
		}

		@Override
		public void flushBuffer() throws IOException {
			frame();
			super.flushBuffer();
		}

		private void frame() {
			if (!this.framed) {
				this.framed = true;
				ChunkedFraming.keep(getResponse(), this.head, getStatus(), containsHeader("Content-Length"));
			}
		}

	}

	@Override
	protected boolean shouldNotFilterAsyncDispatch() {
		return false;
	}

}
