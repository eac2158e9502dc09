package dev.lifecycle.autoconfigure.web.http2;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.web.Http2Drain;
import dev.lifecycle.autoconfigure.web.LifecycleWebAutoConfiguration;
import dev.lifecycle.core.LifecycleManager;
import io.netty.handler.codec.http2.Http2FrameCodec;
import org.eclipse.jetty.http2.HTTP2Connection;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;

/**
 * A graceful GOAWAY on every HTTP/2 connection from the first instant of a shutdown
 * ({@code lifecycle.go-away}, on by default), one configuration per server (Tomcat,
 * Jetty, Reactor Netty), each loading only with its server on the class path.
 */
@AutoConfiguration(after = LifecycleWebAutoConfiguration.class)
@ConditionalOnLifecycleEnabled
@ConditionalOnBean(LifecycleManager.class)
public final class LifecycleHttp2AutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = "lifecycle.go-away", matchIfMissing = true)
	@ConditionalOnWebApplication
	@ConditionalOnClass({ TomcatWebServer.class, jakarta.servlet.http.HttpServletRequest.class })
	@ImportRuntimeHints(TomcatHttp2Drain.Hints.class)
	static class TomcatHttp2DrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleTomcatHttp2Drain")
		TomcatHttp2Drain lifecycleTomcatHttp2Drain(Http2Drain drain, ObjectProvider<InternalHooks> hooks) {
			return new TomcatHttp2Drain(drain, hooks.getIfAvailable(InternalHooks::new));
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

}
