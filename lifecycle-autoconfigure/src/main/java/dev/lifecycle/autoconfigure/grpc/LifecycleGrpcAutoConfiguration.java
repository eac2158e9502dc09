package dev.lifecycle.autoconfigure.grpc;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.component.LifecycleComponentAutoConfiguration;
import dev.lifecycle.autoconfigure.web.LifecycleWebAutoConfiguration;
import dev.lifecycle.autoconfigure.web.StreamDrain;
import dev.lifecycle.core.LifecycleManager;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.grpc.server.autoconfigure.GrpcServerAutoConfiguration;
import org.springframework.boot.grpc.server.autoconfigure.GrpcServerProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.grpc.server.GrpcServerFactory;
import org.springframework.grpc.server.ServerBuilderCustomizer;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/**
 * The drain of Spring gRPC servers (Netty, shaded Netty, in-process), on with
 * {@code lifecycle.grpc.enabled}: health NOT_SERVING at the first instant, GOAWAY when
 * the drain delay ends, streams ended with {@code UNAVAILABLE} at
 * {@code lifecycle.streams.end-at}, and the calls left when the server's budget runs out
 * cancelled and named. A gRPC client pins one connection, so readiness alone would move
 * none of its traffic. Each bean can be replaced by a bean of its name. Each step:
 * {@code docs/grpc.md}.
 */
@AutoConfiguration(after = { LifecycleComponentAutoConfiguration.class, LifecycleWebAutoConfiguration.class,
		GrpcServerAutoConfiguration.class })
@ConditionalOnClass({ GrpcServerLifecycle.class, GrpcServerProperties.class, Server.class })
@ConditionalOnLifecycleEnabled
@ConditionalOnBooleanProperty(name = "lifecycle.grpc.enabled", matchIfMissing = true)
@ConditionalOnBean({ LifecycleManager.class, GrpcServerFactory.class })
@EnableConfigurationProperties(LifecycleGrpcProperties.class)
public final class LifecycleGrpcAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "lifecycleGrpcCallTracker")
	GrpcCallTracker lifecycleGrpcCallTracker(LifecycleGrpcProperties properties, ObjectProvider<StreamDrain> streams) {
		GrpcCallTracker tracker = new GrpcCallTracker();
		if (properties.isEndStreams()) {
			streams.ifAvailable((drain) -> drain.register(tracker));
		}
		return tracker;
	}

	@Bean
	@ConditionalOnMissingBean(name = "lifecycleGrpcCallTrackerCustomizer")
	@SuppressWarnings({ "rawtypes", "unchecked" })
	ServerBuilderCustomizer<?> lifecycleGrpcCallTrackerCustomizer(GrpcCallTracker tracker) {
		// Server-wide: it sees the calls of every service, also those no Spring bean
		// declared.
		return (ServerBuilderCustomizer) (builder) -> ((ServerBuilder<?>) builder).intercept(tracker);
	}

	@Bean
	static GrpcServerLifecyclePostProcessor lifecycleGrpcServerLifecyclePostProcessor(
			ObjectProvider<GrpcCallTracker> tracker, ApplicationEventPublisher publisher,
			ObjectProvider<GrpcServerProperties> properties, ObjectProvider<LifecycleGrpcProperties> drain,
			ObjectProvider<LifecycleManager> manager, ObjectProvider<InternalHooks> hooks) {
		return new GrpcServerLifecyclePostProcessor(tracker, publisher, properties, drain, manager, hooks);
	}

	@Bean
	@ConditionalOnMissingBean(name = "lifecycleGrpcServerDrain")
	GrpcServerDrain lifecycleGrpcServerDrain(ObjectProvider<GrpcServerLifecycle> lifecycles) {
		return new GrpcServerDrain(lifecycles);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthStatusManager.class)
	@ConditionalOnBooleanProperty(name = "lifecycle.grpc.health", matchIfMissing = true)
	static class HealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "lifecycleGrpcHealthDrain")
		GrpcHealthDrain lifecycleGrpcHealthDrain(ObjectProvider<HealthStatusManager> health) {
			return new GrpcHealthDrain(health);
		}

	}

}
