package dev.lifecycle.autoconfigure.web.reactive;

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
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Connection drain on the reactive stack (Reactor Netty): a web filter that closes
 * HTTP/1.x connections after their response once a shutdown began
 * ({@code lifecycle.connection-close}), counts the application's requests (not the
 * actuator's) for the adaptive drain and the report, and ends long-lived streams at their
 * turn.
 */
@AutoConfiguration(after = LifecycleWebAutoConfiguration.class)
@ConditionalOnLifecycleEnabled
@ConditionalOnBean(LifecycleManager.class)
public final class LifecycleReactiveDrainAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(org.springframework.web.server.WebFilter.class)
	@ImportRuntimeHints(PipelinedNettyRequests.Hints.class)
	static class ReactiveConnectionDrainConfiguration {

		/**
		 * Whether Reactor Netty is on the class path: its internals are a hook, the
		 * others' are not read.
		 */
		private static final boolean REACTOR_NETTY = ClassUtils.isPresent("reactor.netty.Connection",
				ReactiveConnectionDrainConfiguration.class.getClassLoader());

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleConnectionDrainWebFilter")
		ConnectionDrainWebFilter lifecycleConnectionDrainWebFilter(LifecycleManager manager,
				LifecycleManagerProperties properties, StreamDrain streams, Http2Drain http2, Environment environment,
				ObjectProvider<InternalHooks> hooks) {
			PipelinedNettyRequests pipelines = REACTOR_NETTY
					? PipelinedNettyRequests.resolve(hooks.getIfAvailable(InternalHooks::new)) : null;
			return new ConnectionDrainWebFilter(manager, properties.isConnectionClose(), streams, http2,
					OwnRequests.from(environment), pipelines);
		}

	}

}
