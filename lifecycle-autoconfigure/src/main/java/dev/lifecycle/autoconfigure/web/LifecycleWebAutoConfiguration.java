package dev.lifecycle.autoconfigure.web;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.GrpcGracePeriod;
import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.ManagerSettings;
import dev.lifecycle.autoconfigure.component.LifecycleComponentAutoConfiguration;
import dev.lifecycle.core.LifecycleManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * What every web stack's drain shares: the schedule that ends long-lived streams at
 * {@code lifecycle.streams.end-at}, the registry of servers' GOAWAY senders, and the
 * engine made before the web server ({@link EngineBeforeTheWebServer}). The stacks
 * themselves are configured by {@code web.servlet}, {@code web.reactive},
 * {@code web.http2} and {@code web.socket}, each loading only with its own optional
 * dependency; each bean can be replaced by a bean of its name.
 */
@AutoConfiguration(after = LifecycleComponentAutoConfiguration.class)
@ConditionalOnLifecycleEnabled
@ConditionalOnBean(LifecycleManager.class)
@EnableConfigurationProperties(LifecycleManagerProperties.class)
public final class LifecycleWebAutoConfiguration {

	private static final String GRPC_SERVER_PROPERTIES = "org.springframework.boot.grpc.server.autoconfigure.GrpcServerProperties";

	@Bean
	@ConditionalOnMissingBean
	StreamDrain lifecycleStreamDrain(LifecycleManagerProperties properties, Environment environment) {
		ManagerSettings settings = ManagerSettings.of(properties, environment);
		Map<String, Duration> budgets = new LinkedHashMap<>();
		budgets.put("spring.lifecycle.timeout-per-shutdown-phase",
				LifecycleComponentAutoConfiguration.springTimeoutPerShutdownPhase(environment));
		if (ClassUtils.isPresent(GRPC_SERVER_PROPERTIES, environment.getClass().getClassLoader())) {
			budgets.put(GrpcGracePeriod.PROPERTY, GrpcGracePeriod.of(environment));
		}
		return new StreamDrain(properties.getStreams().getEndAt(), StreamPacing.of(properties.getStreams(),
				settings.drainDelay(), settings.globalShutdownTimeout(), budgets),
				properties.getStreams().getSseRetry());
	}

	@Bean
	@ConditionalOnMissingBean
	Http2Drain lifecycleHttp2Drain() {
		return new Http2Drain();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.web.server.WebServerFactoryCustomizer")
	static class EngineBeforeTheWebServerConfiguration {

		@Bean
		static EngineBeforeTheWebServer lifecycleEngineBeforeTheWebServer(ObjectProvider<LifecycleManager> manager) {
			return new EngineBeforeTheWebServer(manager);
		}

	}

}
