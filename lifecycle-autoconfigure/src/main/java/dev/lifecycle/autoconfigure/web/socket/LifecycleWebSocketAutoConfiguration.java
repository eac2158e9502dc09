package dev.lifecycle.autoconfigure.web.socket;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.web.LifecycleWebAutoConfiguration;
import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.web.StreamDrain;
import dev.lifecycle.core.LifecycleManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.reactive.socket.server.WebSocketService;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;
import org.springframework.web.reactive.socket.server.support.WebSocketHandlerAdapter;
import org.springframework.web.socket.server.support.WebSocketHttpRequestHandler;

/**
 * The end of WebSocket sessions at {@code lifecycle.streams.end-at}, closed with 1001
 * (going away) so clients reconnect elsewhere: Spring's servlet and reactive WebSocket
 * support and plain Jakarta WebSocket endpoints.
 */
@AutoConfiguration(after = LifecycleWebAutoConfiguration.class)
@ConditionalOnLifecycleEnabled
@ConditionalOnBean(LifecycleManager.class)
public final class LifecycleWebSocketAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass({ WebSocketHttpRequestHandler.class, org.springframework.web.servlet.HandlerAdapter.class })
	static class ServletWebSocketDrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleWebSocketDrain")
		ServletWebSocketDrain lifecycleWebSocketDrain(StreamDrain streams, LifecycleManagerProperties properties) {
			return new ServletWebSocketDrain(streams, properties.getStreams().getWebsocketCloseCode());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(name = "jakarta.websocket.server.ServerContainer")
	static class JakartaWebSocketDrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleJakartaWebSocketDrain")
		JakartaWebSocketDrain lifecycleJakartaWebSocketDrain(StreamDrain streams,
				LifecycleManagerProperties properties) {
			return new JakartaWebSocketDrain(streams, properties.getStreams().getWebsocketCloseCode());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(WebSocketHandlerAdapter.class)
	static class ReactiveWebSocketDrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleWebSocketDrain")
		ReactiveWebSocketDrain lifecycleWebSocketDrain(StreamDrain streams, LifecycleManagerProperties properties,
				ObjectProvider<WebSocketHandlerAdapter> adapters) {
			// The WebSocket service (its upgrade strategy, its settings) of the adapter
			// Spring would run first, the application's own when it declares one;
			// Spring's default otherwise.
			SingletonSupplier<WebSocketService> service = SingletonSupplier.of(() -> adapters.orderedStream()
				.findFirst()
				.map(WebSocketHandlerAdapter::getWebSocketService)
				.orElseGet(HandshakeWebSocketService::new));
			return new ReactiveWebSocketDrain(streams, service, properties.getStreams().getWebsocketCloseCode());
		}

	}

}
