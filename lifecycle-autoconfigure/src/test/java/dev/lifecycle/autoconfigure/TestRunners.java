package dev.lifecycle.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lifecycle.autoconfigure.actuate.LifecycleEndpointAutoConfiguration;
import dev.lifecycle.autoconfigure.actuate.LifecycleHealthContributorAutoConfiguration;
import dev.lifecycle.autoconfigure.component.LifecycleComponentAutoConfiguration;
import dev.lifecycle.autoconfigure.metrics.LifecycleMetricsAutoConfiguration;
import dev.lifecycle.autoconfigure.process.LifecycleProcessAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The Lifecycle auto-configurations in an {@link ApplicationContextRunner}, with
 * everything that touches the JVM or the file system (signals, pre-stop file, run marker)
 * switched off.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
public final class TestRunners {

	private TestRunners() {
	}

	public static ApplicationContextRunner lifecycle() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
					LifecycleManagerAutoConfiguration.class, LifecycleProcessAutoConfiguration.class,
					LifecycleComponentAutoConfiguration.class, LifecycleMetricsAutoConfiguration.class,
					LifecycleHealthContributorAutoConfiguration.class, LifecycleEndpointAutoConfiguration.class,
					InertLifecycleAutoConfiguration.class))
			.withPropertyValues("spring.application.name=orders", "lifecycle.signals.trap=false",
					"lifecycle.pre-stop.enabled=false", "lifecycle.run-marker.enabled=false",
					"lifecycle.halt-after-ceiling=false");
	}

	/** A thread-safe record of what happened, in order. */
	public static final class Events {

		private final List<String> events = new CopyOnWriteArrayList<>();

		public void add(String event) {
			this.events.add(event);
		}

		public List<String> list() {
			return List.copyOf(this.events);
		}

	}

}
