package dev.lifecycle.autoconfigure.grpc;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
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
 * {@code lifecycle.grpc.enabled}: the standard health service turns NOT_SERVING at the first
 * instant of a shutdown ({@code lifecycle.grpc.health}); new calls are served through the drain
 * delay; at its end the server sends GOAWAY and takes no new calls; server-streaming and
 * bidirectional calls end with {@code UNAVAILABLE} at {@code lifecycle.streams.end-at}
 * ({@code lifecycle.grpc.end-streams}); the server's stop, adopted into the standard drain, waits
 * for the calls in flight and cancels and names what is left when its budget runs out.
 * Servlet-hosted gRPC follows the servlet drain instead. Each bean can be replaced by a bean of its
 * name.
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
	GrpcCallTracker lifecycleGrpcCallTracker(LifecycleGrpcProperties properties,
			ObjectProvider<StreamDrain> streams) {
		GrpcCallTracker tracker = new GrpcCallTracker();
		if (properties.isEndStreams()) {
			streams.ifAvailable((drain) -> drain.register(tracker::endStreams));
		}
		return tracker;
	}

	@Bean
	@ConditionalOnMissingBean(name = "lifecycleGrpcCallTrackerCustomizer")
	@SuppressWarnings({ "rawtypes", "unchecked" })
	ServerBuilderCustomizer<?> lifecycleGrpcCallTrackerCustomizer(GrpcCallTracker tracker) {
		// Server-wide: it sees the calls of every service, also those no Spring bean declared.
		return (ServerBuilderCustomizer) (builder) -> ((ServerBuilder<?>) builder).intercept(tracker);
	}

	@Bean
	static GrpcServerLifecyclePostProcessor lifecycleGrpcServerLifecyclePostProcessor(
			ObjectProvider<GrpcCallTracker> tracker, ApplicationEventPublisher publisher,
			ObjectProvider<GrpcServerProperties> properties) {
		return new GrpcServerLifecyclePostProcessor(tracker, publisher, properties);
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
