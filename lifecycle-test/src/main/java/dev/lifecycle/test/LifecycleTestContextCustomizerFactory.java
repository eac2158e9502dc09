package dev.lifecycle.test;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Gives every context of Spring's TestContext framework Lifecycle's test defaults
 * ({@link #DEFAULTS}: no signal trap, context close, pre-stop file, run marker, drain
 * delay or ceiling halt), because a test must never take over the build's JVM nor close
 * or disturb the contexts the framework caches. They sit just below system properties and
 * environment variables: they win over the application's configuration files, whose
 * production values are wrong in a test, and lose to whatever the test sets itself. Each
 * default's reason: {@code docs/testing.md}.
 */
class LifecycleTestContextCustomizerFactory implements ContextCustomizerFactory {

	static final String PROPERTY_SOURCE_NAME = "lifecycleTestDefaults";

	static final Map<String, Object> DEFAULTS = Map.of("lifecycle.signals.trap", "false", "lifecycle.close-context",
			"false", "lifecycle.pre-stop.enabled", "false", "lifecycle.run-marker.enabled", "false",
			"lifecycle.drain-delay", "0s", "lifecycle.halt-after-ceiling", "false");

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return new LifecycleTestDefaults();
	}

	private static final class LifecycleTestDefaults implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
			MutablePropertySources sources = context.getEnvironment().getPropertySources();
			MapPropertySource defaults = new MapPropertySource(PROPERTY_SOURCE_NAME, DEFAULTS);
			if (sources.contains(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)) {
				sources.addAfter(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, defaults);
			}
			else {
				// A non-standard environment: without a landmark, never override
				// anything.
				sources.addLast(defaults);
			}
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other != null && other.getClass() == getClass();
		}

		@Override
		public int hashCode() {
			return getClass().hashCode();
		}

	}

}
