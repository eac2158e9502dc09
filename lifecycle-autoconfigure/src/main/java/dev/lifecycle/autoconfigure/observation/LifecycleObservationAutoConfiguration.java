package dev.lifecycle.autoconfigure.observation;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.LifecycleSwitch;
import dev.lifecycle.core.LifecycleListener;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of a shutdown as Micrometer Observations (one trace per shutdown:
 * the sequence, its steps and every component told to stop) on the application's
 * {@link ObservationRegistry}. The meters an observation handler would derive from them
 * are denied, so the metrics stay exactly the five {@code lifecycle_*} series. Switched
 * off with Spring Boot's {@code management.observations.enable.lifecycle=false}; replaced
 * by a bean named {@code lifecycleObservations}.
 */
@AutoConfiguration(
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnLifecycleEnabled
public final class LifecycleObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "lifecycleObservations")
	LifecycleListener lifecycleObservations(ObservationRegistry registry, Environment environment) {
		// Off at run time in an application processed ahead of time, with Lifecycle on at
		// build time.
		if (LifecycleSwitch.isOff(environment)) {
			return new LifecycleListener() {
			};
		}
		return new ShutdownObservations(registry);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterFilter.class)
	static final class ObservationMeterConfiguration {

		/**
		 * Spring Boot applies every {@code MeterFilter} bean to every registry it
		 * configures.
		 */
		@Bean
		MeterFilter lifecycleObservationMeterFilter() {
			return MeterFilter.deny((id) -> ShutdownObservations.isObservationMeter(id.getName()));
		}

	}

}
