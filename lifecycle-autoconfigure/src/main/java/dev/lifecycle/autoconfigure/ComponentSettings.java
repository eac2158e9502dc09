package dev.lifecycle.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
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
	 * Resolves and checks the options of one {@code @ManagedComponent}.
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
		return resolveWithOrigins(name, annotation, source, overrides, placeholders).options();
	}

	/**
	 * Resolves and checks the options of one {@code @ManagedComponent}, recording where each
	 * value came from.
	 */
	static Resolved resolveWithOrigins(String name, ManagedComponent annotation, String source,
			Map<String, LifecycleProperties.Component> overrides, UnaryOperator<String> placeholders) {
		Declared declared = new Declared(annotation.phase(), annotation.tier(),
				parse(annotation.gracefulShutdown(), "gracefulShutdown", source, placeholders),
				parse(annotation.livenessDeadline(), "livenessDeadline", source, placeholders),
				annotation.stallThreshold(), annotation.finite(), Origin.ANNOTATION, "@ManagedComponent on " + source);
		return resolve(name, declared, overrides);
	}

	/**
	 * Applies the {@code lifecycle.components.<name>.*} overrides to declared options and checks
	 * the result against the engine's rules, reporting a violation against the property that
	 * fixes it.
	 * @param name the component name
	 * @param declared the options as declared by an annotation, by Spring or in code
	 * @param overrides every {@code lifecycle.components} entry
	 * @return the options and the origin of each value
	 * @throws InvalidLifecycleConfigurationException naming the first invalid setting
	 */
	static Resolved resolve(String name, Declared declared, Map<String, LifecycleProperties.Component> overrides) {
		LifecycleProperties.Component override = find(overrides, name);
		String prefix = "lifecycle.components." + name + ".";
		Origin declaredOrigin = declared.origin();
		int phase = (override.getPhase() != null) ? override.getPhase() : declared.phase();
		Tier tier = (override.getTier() != null) ? override.getTier() : declared.tier();
		Duration graceful = (override.getGracefulShutdown() != null) ? override.getGracefulShutdown()
				: declared.gracefulShutdown();
		Duration deadline = (override.getLivenessDeadline() != null) ? override.getLivenessDeadline()
				: declared.livenessDeadline();
		int stallThreshold = (override.getStallThreshold() != null) ? override.getStallThreshold()
				: declared.stallThreshold();
		boolean finite = (override.getFinite() != null) ? override.getFinite() : declared.finite();
		String tierSource = (override.getTier() != null) ? "'" + prefix + "tier'" : declared.description();
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
					: "a finite component (" + declared.description() + ")";
			throw new InvalidLifecycleConfigurationException(prefix + "tier",
					"ADVISORY cannot be combined with " + finiteSource
							+ ": an advisory component never decides when the application ends",
					"Remove " + finiteSource + ", or set '" + prefix + "tier=standard'.");
		}
		ComponentOptions options = ComponentOptions.defaults()
			.withPhase(phase)
			.withTier(tier)
			.withGracefulShutdown(graceful)
			.withLivenessDeadline(deadline)
			.withStallThreshold(stallThreshold)
			.withFinite(finite);
		Map<String, Origin> origins = new LinkedHashMap<>();
		origins.put("phase", (override.getPhase() != null) ? Origin.PROPERTY : declaredOrigin);
		origins.put("tier", (override.getTier() != null) ? Origin.PROPERTY : declaredOrigin);
		origins.put("gracefulShutdown", (override.getGracefulShutdown() != null) ? Origin.PROPERTY
				: (graceful != null) ? declaredOrigin : Origin.DEFAULT);
		origins.put("livenessDeadline", (override.getLivenessDeadline() != null) ? Origin.PROPERTY
				: (deadline != null) ? declaredOrigin : Origin.DEFAULT);
		origins.put("stallThreshold", (override.getStallThreshold() != null) ? Origin.PROPERTY : declaredOrigin);
		origins.put("finite", (override.getFinite() != null) ? Origin.PROPERTY : declaredOrigin);
		return new Resolved(options, origins);
	}

	/**
	 * Applies the overrides to options registered from code.
	 * @param name the component name
	 * @param options the options given in code
	 * @param overrides every {@code lifecycle.components} entry
	 * @return the effective options and their origins
	 */
	static Resolved resolveCode(String name, ComponentOptions options,
			Map<String, LifecycleProperties.Component> overrides) {
		Declared declared = new Declared(options.phase(), options.tier(), options.gracefulShutdown().orElse(null),
				options.livenessDeadline().orElse(null), options.stallThreshold(), options.finite(), Origin.CODE,
				"the registration of component '" + name + "' in code");
		return resolve(name, declared, overrides);
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

	/**
	 * Options as declared before any {@code lifecycle.components} override.
	 *
	 * @param phase the phase
	 * @param tier the tier
	 * @param gracefulShutdown the budget, or {@code null}
	 * @param livenessDeadline the liveness deadline, or {@code null}
	 * @param stallThreshold the stall threshold
	 * @param finite whether the work is finite
	 * @param origin where these values come from
	 * @param description where they were declared, for messages
	 */
	record Declared(int phase, Tier tier, Duration gracefulShutdown, Duration livenessDeadline, int stallThreshold,
			boolean finite, Origin origin, String description) {
	}

	/**
	 * Effective options and where each came from.
	 *
	 * @param options the options the engine gets
	 * @param origins per option name ({@code phase}, {@code tier}, {@code gracefulShutdown},
	 * {@code livenessDeadline}, {@code stallThreshold}), where its value came from
	 */
	record Resolved(ComponentOptions options, Map<String, Origin> origins) {
	}

	/** Where an effective option value came from. */
	enum Origin {

		/** A {@code @ManagedComponent} attribute. */
		ANNOTATION("annotation"),

		/** A {@code lifecycle.components.<name>.*} property (yml, environment, ...). */
		PROPERTY("property"),

		/** Spring: an adopted bean's phase or {@code spring.lifecycle.timeout-per-shutdown-phase}. */
		SPRING("spring"),

		/** The options given to the engine in code. */
		CODE("code"),

		/** Not set anywhere: the engine's default. */
		DEFAULT("default");

		private final String label;

		Origin(String label) {
			this.label = label;
		}

		String label() {
			return this.label;
		}

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
