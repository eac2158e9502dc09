package dev.lifecycle.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The Lifecycle auto-configurations in an {@link ApplicationContextRunner}, with everything that
 * touches the JVM or the file system (signals, pre-stop file, run marker) switched off.
 */
final class TestRunners {

	private TestRunners() {
	}

	static ApplicationContextRunner lifecycle() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
					LifecycleAutoConfiguration.class, LifecycleMetricsAutoConfiguration.class,
					LifecycleHealthContributorAutoConfiguration.class, LifecycleEndpointAutoConfiguration.class,
					InertLifecycleAutoConfiguration.class))
			.withPropertyValues("spring.application.name=orders", "lifecycle.signals.trap=false",
					"lifecycle.pre-stop.enabled=false", "lifecycle.run-marker.enabled=false",
					"lifecycle.halt-after-ceiling=false");
	}

	/** A thread-safe record of what happened, in order. */
	static final class Events {

		private final List<String> events = new CopyOnWriteArrayList<>();

		void add(String event) {
			this.events.add(event);
		}

		List<String> list() {
			return List.copyOf(this.events);
		}

	}

}
