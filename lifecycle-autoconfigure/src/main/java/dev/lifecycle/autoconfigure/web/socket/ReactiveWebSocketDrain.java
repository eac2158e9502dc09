package dev.lifecycle.autoconfigure.web.socket;

import java.util.List;
import java.util.function.Supplier;

import dev.lifecycle.autoconfigure.LifecycleStreamsProperties.WebSocketCloseCode;
import dev.lifecycle.autoconfigure.web.StreamDrain;
import dev.lifecycle.core.Internal;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.web.reactive.HandlerAdapter;
import org.springframework.web.reactive.HandlerResult;
import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketSession;
import org.springframework.web.reactive.socket.server.WebSocketService;
import org.springframework.web.server.ServerWebExchange;

/**
 * Closes WebFlux WebSocket sessions with the configured code when the long-lived streams
 * end, with nothing for the application to register: it runs the handshakes of mapped
 * {@link WebSocketHandler}s ahead of Spring's own {@code WebSocketHandlerAdapter},
 * through the same {@link WebSocketService}, around a handler that tracks each session.
 */
@Internal
public final class ReactiveWebSocketDrain implements HandlerAdapter, Ordered {

	private final WebSocketDrain<WebSocketSession> sessions;

	private final Supplier<WebSocketService> service;

	ReactiveWebSocketDrain(StreamDrain streams, Supplier<WebSocketService> service, WebSocketCloseCode closeCode) {
		CloseStatus status = new CloseStatus(closeCode.code());
		this.sessions = new WebSocketDrain<>(streams, closeCode,
				(session) -> session.close(status).subscribe(null, (ex) -> {
				}));
		this.service = service;
	}

	@Override
	public boolean supports(Object handler) {
		return handler instanceof WebSocketHandler;
	}

	@Override
	public Mono<HandlerResult> handle(ServerWebExchange exchange, Object handler) {
		WebSocketHandler application = (WebSocketHandler) handler;
		WebSocketHandler tracking = new WebSocketHandler() {

			@Override
			public List<String> getSubProtocols() {
				return application.getSubProtocols();
			}

			@Override
			public Mono<Void> handle(WebSocketSession session) {
				return Mono.defer(() -> {
					ReactiveWebSocketDrain.this.sessions.opened(session);
					return application.handle(session);
				}).doFinally((signal) -> ReactiveWebSocketDrain.this.sessions.closed(session));
			}

		};
		return this.service.get().handleRequest(exchange, tracking).then(Mono.empty());
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
