package dev.lifecycle.spring;

import java.util.List;
import java.util.Map;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Gives every context that Spring's TestContext framework creates test-friendly Lifecycle
 * defaults, at the lowest precedence so that a test's own properties win:
 * {@code lifecycle.signals.trap=false} (a test must never take over the build's signals or exit
 * its JVM), {@code lifecycle.close-context=false} (the framework owns the contexts it caches and
 * cannot reuse one closed behind its back), {@code lifecycle.pre-stop.enabled=false} (a shared {@code /tmp/shutdown} would stop
 * every cached context), {@code lifecycle.run-marker.enabled=false} (several cached contexts
 * of one service would see each other's marker as an unclean run) and
 * {@code lifecycle.halt-after-ceiling=false} (a slow test must fail, not halt the build's JVM).
 */
class LifecycleTestContextCustomizerFactory implements ContextCustomizerFactory {

	static final String PROPERTY_SOURCE_NAME = "lifecycleTestDefaults";

	private static final Map<String, Object> DEFAULTS = Map.of("lifecycle.signals.trap", "false",
			"lifecycle.close-context", "false", "lifecycle.pre-stop.enabled", "false", "lifecycle.run-marker.enabled",
			"false", "lifecycle.halt-after-ceiling", "false");

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return new LifecycleTestDefaults();
	}

	private static final class LifecycleTestDefaults implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context,
				MergedContextConfiguration mergedConfig) {
			context.getEnvironment().getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, DEFAULTS));
		}

		@Override
		public boolean equals(Object other) {
			return other != null && other.getClass() == getClass();
		}

		@Override
		public int hashCode() {
			return getClass().hashCode();
		}

	}

}
