package dev.lifecycle.autoconfigure;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.Tier;
import dev.lifecycle.spring.ManagedComponent;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.StringUtils;

/**
 * Resolves one component's options: the {@link ManagedComponent} attributes, overridden by
 * {@code lifecycle.components.<name>.*}. It checks the same rules as the engine, but reports them
 * against the property that fixes them, since a Spring user configures properties, not
 * {@link ComponentOptions}.
 */
final class ComponentSettings {

	private ComponentSettings() {
	}

	/**
	 * Resolves and checks the options of one component.
	 * @param name the component name
	 * @param annotation its annotation
	 * @param source a description of where the annotation sits, for messages
	 * @param overrides every {@code lifecycle.components} entry
	 * @param placeholders resolves {@code ${...}} in annotation strings
	 * @return the options
	 * @throws InvalidLifecycleConfigurationException naming the first invalid setting
	 */
	static ComponentOptions resolve(String name, ManagedComponent annotation, String source,
			Map<String, LifecycleProperties.Component> overrides, UnaryOperator<String> placeholders) {
		LifecycleProperties.Component override = find(overrides, name);
		String prefix = "lifecycle.components." + name + ".";
		int phase = (override.getPhase() != null) ? override.getPhase() : annotation.phase();
		Tier tier = (override.getTier() != null) ? override.getTier() : annotation.tier();
		Duration graceful = (override.getGracefulShutdown() != null) ? override.getGracefulShutdown()
				: parse(annotation.gracefulShutdown(), "gracefulShutdown", source, placeholders);
		Duration deadline = (override.getLivenessDeadline() != null) ? override.getLivenessDeadline()
				: parse(annotation.livenessDeadline(), "livenessDeadline", source, placeholders);
		int stallThreshold = (override.getStallThreshold() != null) ? override.getStallThreshold()
				: annotation.stallThreshold();
		boolean finite = (override.getFinite() != null) ? override.getFinite() : annotation.finite();
		String tierSource = (override.getTier() != null) ? "'" + prefix + "tier'" : "@ManagedComponent on " + source;
		requirePositive(prefix + "graceful-shutdown", graceful);
		requirePositive(prefix + "liveness-deadline", deadline);
		if (stallThreshold < 1) {
			throw new InvalidLifecycleConfigurationException(prefix + "stall-threshold",
					"must be at least 1 but was " + stallThreshold,
					"Set '" + prefix + "stall-threshold' (or @ManagedComponent(stallThreshold)) to 1 or more.");
		}
		if (tier == Tier.OBSERVABILITY && deadline != null) {
			throw new InvalidLifecycleConfigurationException(prefix + "liveness-deadline",
					"is not allowed on an OBSERVABILITY component (tier set by " + tierSource + ")",
					"Remove the liveness deadline of component '" + name + "' (property and @ManagedComponent"
							+ "(livenessDeadline)), or set '" + prefix + "tier=standard'.");
		}
		if (tier == Tier.ADVISORY && deadline == null) {
			throw new InvalidLifecycleConfigurationException(prefix + "liveness-deadline",
					"is required for an ADVISORY component (tier set by " + tierSource
							+ "): without one it could never be observed",
					"Set '" + prefix + "liveness-deadline' (or @ManagedComponent(livenessDeadline)), for example 10s, "
							+ "or set '" + prefix + "tier=standard'.");
		}
		if (tier == Tier.ADVISORY && graceful != null) {
			throw new InvalidLifecycleConfigurationException(prefix + "graceful-shutdown",
					"is not allowed on an ADVISORY component (tier set by " + tierSource
							+ "): shutdown never waits for it",
					"Remove the graceful shutdown budget of component '" + name + "' (property and @ManagedComponent"
							+ "(gracefulShutdown)), or set '" + prefix + "tier=standard'.");
		}
		if (tier == Tier.ADVISORY && finite) {
			String finiteSource = (override.getFinite() != null) ? "'" + prefix + "finite=true'"
					: "@ManagedComponent(finite = true) on " + source;
			throw new InvalidLifecycleConfigurationException(prefix + "tier",
					"ADVISORY cannot be combined with " + finiteSource
							+ ": an advisory component never decides when the application ends",
					"Remove " + finiteSource + ", or set '" + prefix + "tier=standard'.");
		}
		return ComponentOptions.defaults()
			.withPhase(phase)
			.withTier(tier)
			.withGracefulShutdown(graceful)
			.withLivenessDeadline(deadline)
			.withStallThreshold(stallThreshold)
			.withFinite(finite);
	}

	/**
	 * Finds the override entry for a component. Keys are compared in canonical form so that
	 * {@code orderConsumer}, {@code order-consumer} and the environment variable form
	 * {@code ORDERCONSUMER} all name the same component.
	 */
	static LifecycleProperties.Component find(Map<String, LifecycleProperties.Component> overrides, String name) {
		String canonical = canonical(name);
		LifecycleProperties.Component found = null;
		for (Map.Entry<String, LifecycleProperties.Component> entry : overrides.entrySet()) {
			if (canonical(entry.getKey()).equals(canonical)) {
				found = entry.getValue();
			}
		}
		return (found != null) ? found : new LifecycleProperties.Component();
	}

	static String canonical(String name) {
		return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
	}

	private static Duration parse(String value, String attribute, String source, UnaryOperator<String> placeholders) {
		if (!StringUtils.hasText(value)) {
			return null;
		}
		String resolved = placeholders.apply(value);
		if (!StringUtils.hasText(resolved)) {
			return null;
		}
		try {
			return DurationStyle.detectAndParse(resolved.trim());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidLifecycleConfigurationException("@ManagedComponent(" + attribute + ") on " + source,
					"is not a duration: '" + resolved + "'",
					"Use Spring Boot's duration format, such as \"30s\", \"500ms\" or \"PT1M\".");
		}
	}

	private static void requirePositive(String property, Duration value) {
		if (value != null && (value.isNegative() || value.isZero())) {
			throw new InvalidLifecycleConfigurationException(property, "must be positive but was " + value,
					"Set '" + property + "' (or the matching @ManagedComponent attribute) to a positive duration, "
							+ "or leave it unset.");
		}
	}

}
