package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.LifecycleManager;

import io.netty.handler.codec.http2.Http2FrameCodec;
import org.eclipse.jetty.http2.HTTP2Connection;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.Ordered;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.reactive.socket.server.WebSocketService;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;
import org.springframework.web.reactive.socket.server.support.WebSocketHandlerAdapter;
import org.springframework.web.socket.server.support.WebSocketHttpRequestHandler;

/**
 * Connection-level drain for web applications, servlet (Tomcat, Jetty) and reactive (Reactor Netty)
 * alike: from the first instant of a shutdown a GOAWAY on HTTP/2 connections and
 * {@code Connection: close} on HTTP/1.x responses, request counting for the adaptive drain, and the
 * end of long-lived streams and WebSocket sessions at {@code lifecycle.streams.end-at}, because
 * readiness alone moves no client off a connection it already holds. Each bean can be replaced by a
 * bean of its name.
 */
@AutoConfiguration(after = LifecycleAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "lifecycle.enabled", matchIfMissing = true)
@ConditionalOnBean(LifecycleManager.class)
@EnableConfigurationProperties(LifecycleProperties.class)
public final class LifecycleWebAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	StreamDrain lifecycleStreamDrain(LifecycleProperties properties) {
		return new StreamDrain(properties.getStreams().getEndAt());
	}

	@Bean
	@ConditionalOnMissingBean
	Http2Drain lifecycleHttp2Drain() {
		return new Http2Drain();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = "lifecycle.go-away", matchIfMissing = true)
	@ConditionalOnWebApplication
	@ConditionalOnClass({ TomcatWebServer.class, jakarta.servlet.http.HttpServletRequest.class })
	@ImportRuntimeHints(TomcatHttp2Drain.Hints.class)
	static class TomcatHttp2DrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleTomcatHttp2Drain")
		TomcatHttp2Drain lifecycleTomcatHttp2Drain(Http2Drain drain) {
			return new TomcatHttp2Drain(drain);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = "lifecycle.go-away", matchIfMissing = true)
	@ConditionalOnWebApplication
	@ConditionalOnClass({ JettyWebServer.class, HTTP2Connection.class, jakarta.servlet.http.HttpServletRequest.class })
	static class JettyHttp2DrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleJettyHttp2Drain")
		JettyHttp2Drain lifecycleJettyHttp2Drain(Http2Drain drain) {
			return new JettyHttp2Drain(drain);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = "lifecycle.go-away", matchIfMissing = true)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass({ NettyServerCustomizer.class, Http2FrameCodec.class })
	static class NettyHttp2DrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleNettyHttp2Drain")
		NettyHttp2Drain lifecycleNettyHttp2Drain(Http2Drain drain) {
			return new NettyHttp2Drain(drain);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass({ FilterRegistrationBean.class, org.springframework.web.filter.OncePerRequestFilter.class })
	@ImportRuntimeHints(PipelinedRequests.Hints.class)
	static class ServletConnectionDrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleConnectionDrainFilter")
		FilterRegistrationBean<ConnectionDrainFilter> lifecycleConnectionDrainFilter(LifecycleManager manager,
				LifecycleProperties properties, StreamDrain streams, Http2Drain http2) {
			FilterRegistrationBean<ConnectionDrainFilter> registration = new FilterRegistrationBean<>(
					new ConnectionDrainFilter(manager, properties.isConnectionClose(), streams, http2));
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			registration.setAsyncSupported(true);
			return registration;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(org.springframework.web.server.WebFilter.class)
	@ImportRuntimeHints(PipelinedRequests.Hints.class)
	static class ReactiveConnectionDrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleConnectionDrainWebFilter")
		ConnectionDrainWebFilter lifecycleConnectionDrainWebFilter(LifecycleManager manager,
				LifecycleProperties properties, StreamDrain streams, Http2Drain http2) {
			return new ConnectionDrainWebFilter(manager, properties.isConnectionClose(), streams, http2);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass({ WebSocketHttpRequestHandler.class, org.springframework.web.servlet.HandlerAdapter.class })
	static class ServletWebSocketDrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleWebSocketDrain")
		ServletWebSocketDrain lifecycleWebSocketDrain(StreamDrain streams) {
			return new ServletWebSocketDrain(streams);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(name = "jakarta.websocket.server.ServerContainer")
	static class JakartaWebSocketDrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleJakartaWebSocketDrain")
		JakartaWebSocketDrain lifecycleJakartaWebSocketDrain(StreamDrain streams) {
			return new JakartaWebSocketDrain(streams);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(WebSocketHandlerAdapter.class)
	static class ReactiveWebSocketDrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleWebSocketDrain")
		ReactiveWebSocketDrain lifecycleWebSocketDrain(StreamDrain streams,
				ObjectProvider<WebSocketHandlerAdapter> adapters) {
			// The WebSocket service (its upgrade strategy, its settings) of the adapter Spring would
			// run first, the application's own when it declares one; Spring's default otherwise.
			SingletonSupplier<WebSocketService> service = SingletonSupplier.of(() -> adapters.orderedStream()
				.findFirst()
				.map(WebSocketHandlerAdapter::getWebSocketService)
				.orElseGet(HandshakeWebSocketService::new));
			return new ReactiveWebSocketDrain(streams, service);
		}

	}

}
