package dev.lifecycle.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.InvalidOptionException;
import dev.lifecycle.core.Tier;
import dev.lifecycle.spring.ManagedComponent;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.util.StringUtils;

/**
 * Resolves one component's options: what an annotation, Spring or code declared, overridden by
 * {@code lifecycle.components.<name>.*}, with the origin of each value. The engine checks the
 * options; what it rejects is reported here against the property that fixes it, since a Spring
 * user configures properties, not {@link ComponentOptions}.
 */
@Internal
public final class ComponentOverrides {

	static final List<String> OPTIONS = List.of("adopt", "phase", "tier", "graceful-shutdown", "liveness-deadline", "finite",
			"stall-threshold");

	private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("lifecycle.components");

	private static final Set<String> CANONICAL_OPTIONS = Set.copyOf(
			OPTIONS.stream().map(ComponentOverrides::canonical).toList());

	private ComponentOverrides() {
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
			Map<String, LifecycleManagerProperties.Component> overrides, UnaryOperator<String> placeholders) {
		return resolveWithOrigins(name, annotation, source, overrides, placeholders).options();
	}

	/**
	 * Resolves and checks the options of one {@code @ManagedComponent}, recording where each
	 * value came from.
	 */
	public static Resolved resolveWithOrigins(String name, ManagedComponent annotation, String source,
			Map<String, LifecycleManagerProperties.Component> overrides, UnaryOperator<String> placeholders) {
		Declared declared = new Declared(annotation.phase(), annotation.tier(),
				parse(annotation.gracefulShutdown(), "gracefulShutdown", source, placeholders),
				parse(annotation.livenessDeadline(), "livenessDeadline", source, placeholders),
				annotation.stallThreshold(), annotation.finite(), Origin.ANNOTATION, "@ManagedComponent on " + source);
		return resolve(name, declared, overrides);
	}

	/**
	 * Applies the {@code lifecycle.components.<name>.*} overrides to declared options. The engine
	 * checks the result when the component is registered; {@link #translate} reports what it
	 * rejects against the property that fixes it.
	 * @param name the component name
	 * @param declared the options as declared by an annotation, by Spring or in code
	 * @param overrides every {@code lifecycle.components} entry
	 * @return the options and the origin of each value
	 */
	public static Resolved resolve(String name, Declared declared, Map<String, LifecycleManagerProperties.Component> overrides) {
		LifecycleManagerProperties.Component override = find(overrides, name);
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
			Map<String, LifecycleManagerProperties.Component> overrides) {
		Declared declared = new Declared(options.phase(), options.tier(), options.gracefulShutdown().orElse(null),
				options.livenessDeadline().orElse(null), options.stallThreshold(), options.finite(), Origin.CODE,
				"the registration of component '" + name + "' in code");
		return resolve(name, declared, overrides);
	}

	/**
	 * Reports an option the engine rejected at registration against the property that fixes it,
	 * {@code lifecycle.components.<name>.<option>}; the rule itself lives in the engine only.
	 * @param ex what the engine rejected
	 * @return the exception to fail the start with
	 */
	public static InvalidLifecycleConfigurationException translate(InvalidOptionException ex) {
		String component = ex.component();
		String option = DASHED.getOrDefault(ex.option(), ex.option());
		String prefix = "lifecycle.components." + component + ".";
		String property = prefix + option;
		String problem = ex.problem();
		String tierFix = " or set '" + prefix + "tier=standard'.";
		String fix;
		if (problem.startsWith("must be at most")) {
			fix = atMostFix(property) + " (Or lower the matching @ManagedComponent attribute or option in code.)";
		}
		else if (problem.startsWith("must be positive")) {
			fix = "Set '" + property + "' (or the matching @ManagedComponent attribute or option in code) to a "
					+ "positive duration, or leave it unset.";
		}
		else if (problem.startsWith("must be at least 1")) {
			fix = "Set '" + property + "' (or @ManagedComponent(stallThreshold)) to 1 or more.";
		}
		else if (problem.startsWith("is required")) {
			fix = "Set '" + property + "' (or @ManagedComponent(livenessDeadline)), for example 10s," + tierFix;
		}
		else if (ex.option().equals("livenessDeadline")) {
			fix = "Remove the liveness deadline of component '" + component + "' (property, @ManagedComponent"
					+ "(livenessDeadline) or code)," + tierFix;
		}
		else if (ex.option().equals("gracefulShutdown")) {
			fix = "Remove the graceful shutdown budget of component '" + component + "' (property, @ManagedComponent"
					+ "(gracefulShutdown) or code)," + tierFix;
		}
		else if (ex.option().equals("finite")) {
			fix = "Remove finite = true from component '" + component + "' (property, @ManagedComponent(finite) or "
					+ "code)," + tierFix;
		}
		else {
			fix = "Correct '" + property + "'.";
		}
		return new InvalidLifecycleConfigurationException(property, problem, fix);
	}

	/**
	 * How to fix a value above the engine's maximum.
	 * @param property the property at fault
	 * @return the fix, naming the maximum
	 */
	public static String atMostFix(String property) {
		return "Set '" + property + "' to at most " + ComponentOptions.MAX_DURATION.toHours() + "h"
				+ " for a duration, or " + ComponentOptions.MAX_COUNT + " for a count: Lifecycle accepts nothing "
				+ "longer or larger, and a duration that long already means 'never' in practice.";
	}

	/** The property name of each engine option whose name differs. */
	private static final Map<String, String> DASHED = Map.of("gracefulShutdown", "graceful-shutdown",
			"livenessDeadline", "liveness-deadline", "stallThreshold", "stall-threshold");

	/**
	 * Finds the override entry for a component. Keys are compared in canonical form so that
	 * {@code orderConsumer}, {@code order-consumer} and the environment variable form
	 * {@code ORDERCONSUMER} all name the same component.
	 */
	public static LifecycleManagerProperties.Component find(Map<String, LifecycleManagerProperties.Component> overrides, String name) {
		String canonical = canonical(name);
		LifecycleManagerProperties.Component found = null;
		for (Map.Entry<String, LifecycleManagerProperties.Component> entry : overrides.entrySet()) {
			if (canonical(entry.getKey()).equals(canonical)) {
				found = entry.getValue();
			}
		}
		return (found != null) ? found : new LifecycleManagerProperties.Component();
	}

	public static String canonical(String name) {
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
	public record Declared(int phase, Tier tier, @Nullable Duration gracefulShutdown, @Nullable Duration livenessDeadline,
			int stallThreshold, boolean finite, Origin origin, String description) {
	}

	/**
	 * Effective options and where each came from.
	 *
	 * @param options the options the engine gets
	 * @param origins per option name ({@code phase}, {@code tier}, {@code gracefulShutdown},
	 * {@code livenessDeadline}, {@code stallThreshold}), where its value came from
	 */
	public record Resolved(ComponentOptions options, Map<String, Origin> origins) {
	}

	/** Where an effective option value came from. */
	public enum Origin {

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

		public String label() {
			return this.label;
		}

	}

	private static @Nullable Duration parse(String value, String attribute, String source,
			UnaryOperator<String> placeholders) {
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

	/**
	 * Rejects an unknown option under {@code lifecycle.components.<name>.}: binding would ignore a
	 * misspelt {@code gracefull-shutdown} in silence. Environment variables are not checked: their
	 * underscores make the component name and the option indistinguishable.
	 * @param environment the application's environment
	 * @throws InvalidLifecycleConfigurationException naming the first unknown key and where it
	 * was set
	 */
	public static void checkKeys(Environment environment) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)
					|| source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource) {
				continue;
			}
			iterable.filter(PREFIX::isAncestorOf).forEach(ComponentOverrides::checkKey);
		}
	}

	private static void checkKey(ConfigurationPropertyName name) {
		int elements = name.getNumberOfElements();
		String option = (elements > 3) ? name.getElement(3, ConfigurationPropertyName.Form.DASHED) : "";
		if (elements == 4 && CANONICAL_OPTIONS.contains(canonical(option))) {
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
