package dev.lifecycle.autoconfigure.web.servlet;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.web.Http2Drain;
import dev.lifecycle.autoconfigure.web.LifecycleWebAutoConfiguration;
import dev.lifecycle.autoconfigure.web.OwnRequests;
import dev.lifecycle.autoconfigure.web.StreamDrain;
import dev.lifecycle.core.LifecycleManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Connection drain on the servlet stacks (Tomcat, Jetty): a filter that closes HTTP/1.x
 * connections after their response once a shutdown began
 * ({@code lifecycle.connection-close}), counts the application's requests (not the
 * actuator's) for the adaptive drain and the report, and ends long-lived streams at their
 * turn.
 */
@AutoConfiguration(after = LifecycleWebAutoConfiguration.class)
@ConditionalOnLifecycleEnabled
@ConditionalOnBean(LifecycleManager.class)
public final class LifecycleServletDrainAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass({ FilterRegistrationBean.class, org.springframework.web.filter.OncePerRequestFilter.class })
	@ImportRuntimeHints({ TomcatRequests.Hints.class, JettyRequests.Hints.class })
	static class ServletConnectionDrainConfiguration {

		/** The application's requests, which the web server's stop takes as cut. */
		@Bean
		ServletTraffic lifecycleServletTraffic(LifecycleManager manager, Environment environment) {
			return new ServletTraffic(manager, OwnRequests.from(environment));
		}

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleConnectionDrainFilter")
		FilterRegistrationBean<ConnectionDrainFilter> lifecycleConnectionDrainFilter(LifecycleManager manager,
				LifecycleManagerProperties properties, StreamDrain streams, Http2Drain http2, ServletTraffic traffic,
				ObjectProvider<InternalHooks> hooks) {
			PipelinedServletRequests pipelines = PipelinedServletRequests
				.resolve(hooks.getIfAvailable(InternalHooks::new));
			FilterRegistrationBean<ConnectionDrainFilter> registration = new FilterRegistrationBean<>(
					new ConnectionDrainFilter(manager, properties.isConnectionClose(), traffic, streams, http2,
							pipelines));
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			registration.setAsyncSupported(true);
			return registration;
		}

	}

}
