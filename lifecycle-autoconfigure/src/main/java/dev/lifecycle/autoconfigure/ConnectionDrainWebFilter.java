package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.LifecycleManager;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * The reactive counterpart of {@link ConnectionDrainFilter} (Reactor Netty): from the first
 * instant of a shutdown every response carries {@code Connection: close}, so keep-alive clients
 * reconnect elsewhere during the drain delay; every request counts as activity for the adaptive
 * drain. Netty leaves the header out of HTTP/2 responses, where it has no meaning.
 */
final class ConnectionDrainWebFilter implements WebFilter, Ordered {

	private final LifecycleManager manager;

	private final boolean connectionClose;

	ConnectionDrainWebFilter(LifecycleManager manager, boolean connectionClose) {
		this.manager = manager;
		this.connectionClose = connectionClose;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		this.manager.recordActivity();
		if (this.connectionClose && this.manager.isShutdownInitiated()) {
			exchange.getResponse().getHeaders().set(HttpHeaders.CONNECTION, "close");
		}
		return chain.filter(exchange);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
