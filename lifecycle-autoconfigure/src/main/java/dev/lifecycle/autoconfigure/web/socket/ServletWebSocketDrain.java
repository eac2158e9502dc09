package dev.lifecycle.autoconfigure.web.socket;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.lifecycle.autoconfigure.LifecycleStreamsProperties.WebSocketCloseCode;
import dev.lifecycle.autoconfigure.web.StreamDrain;
import dev.lifecycle.core.Internal;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.web.HttpRequestHandler;
import org.springframework.web.servlet.HandlerAdapter;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.ExceptionWebSocketHandlerDecorator;
import org.springframework.web.socket.handler.LoggingWebSocketHandlerDecorator;
import org.springframework.web.socket.handler.WebSocketHandlerDecorator;
import org.springframework.web.socket.server.support.WebSocketHttpRequestHandler;
import org.springframework.web.socket.sockjs.support.SockJsHttpRequestHandler;

/**
 * Closes Spring WebSocket sessions on the servlet stacks with the configured code when
 * the long-lived streams end, with nothing for the application to register: it runs the
 * handshakes Spring maps (plain handlers, STOMP and SockJS endpoints) with the same
 * handshake handler and interceptors, around a decorator that tracks the sessions of the
 * application's {@link WebSocketHandler}. A subclass of
 * {@link WebSocketHttpRequestHandler} or {@link SockJsHttpRequestHandler} is left to
 * Spring as is.
 */
@Internal
public final class ServletWebSocketDrain implements HandlerAdapter, Ordered {

	private final WebSocketDrain<WebSocketSession> sessions;

	private final Map<HttpRequestHandler, HttpRequestHandler> tracking = new ConcurrentHashMap<>();

	ServletWebSocketDrain(StreamDrain streams, WebSocketCloseCode closeCode) {
		CloseStatus status = new CloseStatus(closeCode.code());
		this.sessions = new WebSocketDrain<>(streams, closeCode, (session) -> close(session, status));
	}

	@Override
	public boolean supports(Object handler) {
		return handler.getClass() == WebSocketHttpRequestHandler.class
				|| handler.getClass() == SockJsHttpRequestHandler.class;
	}

	@Override
	public @Nullable ModelAndView handle(HttpServletRequest request, HttpServletResponse response, Object handler)
			throws Exception {
		this.tracking.computeIfAbsent((HttpRequestHandler) handler, this::tracking).handleRequest(request, response);
		return null;
	}

	private HttpRequestHandler tracking(HttpRequestHandler mapped) {
		if (mapped instanceof SockJsHttpRequestHandler sockJs) {
			// The same SockJS service (its sessions, transports and settings): a session
			// is created with the handler of its first request, always this copy.
			return new SockJsHttpRequestHandler(sockJs.getSockJsService(),
					new Tracking(undecorated(sockJs.getWebSocketHandler()), this.sessions));
		}
		return trackingWebSocket((WebSocketHttpRequestHandler) mapped);
	}

	/**
	 * The application's handler inside the exception and logging decorators that
	 * {@link SockJsHttpRequestHandler}'s constructor always adds, so that the copy, which
	 * adds them again around the tracking, does not log and catch twice.
	 */
	private static WebSocketHandler undecorated(WebSocketHandler handler) {
		if (handler instanceof ExceptionWebSocketHandlerDecorator exceptions
				&& exceptions.getDelegate() instanceof LoggingWebSocketHandlerDecorator logging) {
			return logging.getDelegate();
		}
		return handler;
	}

	private WebSocketHttpRequestHandler trackingWebSocket(WebSocketHttpRequestHandler mapped) {
		WebSocketHandler tracked = new Tracking(mapped.getWebSocketHandler(), this.sessions);
		WebSocketHttpRequestHandler copy = new WebSocketHttpRequestHandler(tracked, mapped.getHandshakeHandler()) {
			@Override
			protected WebSocketHandler decorate(WebSocketHandler handler) {
				// The mapped handler's own decorators (logging, exceptions) are already
				// inside.
				return handler;
			}
		};
		copy.setHandshakeInterceptors(mapped.getHandshakeInterceptors());
		return copy;
	}

	private static void close(WebSocketSession session, CloseStatus status) {
		try {
			session.close(status);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	private static final class Tracking extends WebSocketHandlerDecorator {

		private final WebSocketDrain<WebSocketSession> sessions;

		Tracking(WebSocketHandler delegate, WebSocketDrain<WebSocketSession> sessions) {
			super(delegate);
			this.sessions = sessions;
		}

		@Override
		public void afterConnectionEstablished(WebSocketSession session) throws Exception {
			super.afterConnectionEstablished(session);
			this.sessions.opened(session);
		}

		@Override
		public void afterConnectionClosed(WebSocketSession session, CloseStatus closeStatus) throws Exception {
			this.sessions.closed(session);
			super.afterConnectionClosed(session, closeStatus);
		}

	}

}
