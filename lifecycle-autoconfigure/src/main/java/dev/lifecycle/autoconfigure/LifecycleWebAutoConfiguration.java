package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.LifecycleManager;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Connection-level drain for web applications: {@code Connection: close} on every response from
 * the first instant of a shutdown ({@code lifecycle.connection-close}, on by default), and request
 * counting for the adaptive drain ({@code lifecycle.drain-quiet-period}), and the end of long-lived
 * streams at {@code lifecycle.streams.end-at}. Servlet (Tomcat, Jetty)
 * and reactive (Reactor Netty) stacks alike; each filter can be replaced by a bean of its name.
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

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass({ FilterRegistrationBean.class, org.springframework.web.filter.OncePerRequestFilter.class })
	static class ServletConnectionDrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleConnectionDrainFilter")
		FilterRegistrationBean<ConnectionDrainFilter> lifecycleConnectionDrainFilter(LifecycleManager manager,
				LifecycleProperties properties, StreamDrain streams) {
			FilterRegistrationBean<ConnectionDrainFilter> registration = new FilterRegistrationBean<>(
					new ConnectionDrainFilter(manager, properties.isConnectionClose(), streams));
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			registration.setAsyncSupported(true);
			return registration;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(org.springframework.web.server.WebFilter.class)
	static class ReactiveConnectionDrainConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleConnectionDrainWebFilter")
		ConnectionDrainWebFilter lifecycleConnectionDrainWebFilter(LifecycleManager manager,
				LifecycleProperties properties, StreamDrain streams) {
			return new ConnectionDrainWebFilter(manager, properties.isConnectionClose(), streams);
		}

	}

}
