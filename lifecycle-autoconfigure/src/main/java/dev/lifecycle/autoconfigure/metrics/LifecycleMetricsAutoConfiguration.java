package dev.lifecycle.autoconfigure.metrics;

import dev.lifecycle.autoconfigure.ComponentLedger;
import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.ManagerSettings;
import dev.lifecycle.autoconfigure.LifecycleSwitch;
import dev.lifecycle.core.LifecycleListener;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of Lifecycle's metrics on Micrometer: the five {@code lifecycle_*}
 * series, tagged {@code service_name}. Without Micrometer the engine records nothing.
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnLifecycleEnabled
@EnableConfigurationProperties(LifecycleManagerProperties.class)
public final class LifecycleMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "lifecycleMetrics")
	LifecycleListener lifecycleMetrics(MeterRegistry registry, LifecycleManagerProperties properties,
			Environment environment, ObjectProvider<ComponentLedger> origins) {
		// Off at run time in an application processed ahead of time, with Lifecycle on at
		// build time.
		if (LifecycleSwitch.isOff(environment)) {
			return new LifecycleListener() {
			};
		}
		return new MicrometerLifecycleMetrics(registry, ManagerSettings.serviceName(properties, environment),
				properties.getMetrics().isHistogram(), (name) -> {
					ComponentLedger known = origins.getIfAvailable();
					return known != null && known.get(name).map(ComponentLedger.Entry::adopted).orElse(false);
				});
	}

}
