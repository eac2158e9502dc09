package dev.lifecycle.autoconfigure;

import java.util.List;
import java.util.Set;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Rejects an unknown option under {@code lifecycle.components.<name>.}: binding would ignore a
 * misspelt {@code gracefull-shutdown} in silence and the component would drain without the
 * budget its owner meant to give it.
 *
 * <p>Environment variables are not checked: their underscores make the component name and the
 * option indistinguishable ({@code LIFECYCLE_COMPONENTS_ORDER_CONSUMER_PHASE}).
 *
 * <p>Not API: public only for Lifecycle's own packages.
 */
public final class ComponentKeys {

	static final List<String> OPTIONS = List.of("adopt", "phase", "tier", "graceful-shutdown", "liveness-deadline", "finite",
			"stall-threshold");

	private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("lifecycle.components");

	private static final Set<String> CANONICAL_OPTIONS = Set.copyOf(
			OPTIONS.stream().map(ComponentSettings::canonical).toList());

	private ComponentKeys() {
	}

	/**
	 * @throws InvalidLifecycleConfigurationException naming the first unknown key and where it
	 * was set
	 */
	public static void check(Environment environment) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)
					|| source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource) {
				continue;
			}
			iterable.filter(PREFIX::isAncestorOf).forEach((name) -> check(name));
		}
	}

	private static void check(ConfigurationPropertyName name) {
		int elements = name.getNumberOfElements();
		String option = (elements > 3) ? name.getElement(3, ConfigurationPropertyName.Form.DASHED) : "";
		if (elements == 4 && CANONICAL_OPTIONS.contains(ComponentSettings.canonical(option))) {
			return;
		}
		String component = (elements > 2) ? name.getElement(2, ConfigurationPropertyName.Form.ORIGINAL) : "";
		throw new InvalidLifecycleConfigurationException(name.toString(),
				"is not a component option; the options under 'lifecycle.components." + component + ".' are "
						+ OPTIONS,
				"Correct the key to one of " + OPTIONS + " (for example 'lifecycle.components." + component
						+ ".graceful-shutdown=30s'), or remove it.");
	}

}
