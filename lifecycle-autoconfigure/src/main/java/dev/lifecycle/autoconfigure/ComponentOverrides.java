package dev.lifecycle.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.Tier;
import org.jspecify.annotations.Nullable;

/**
 * Resolves one component's options: what an annotation, Spring or code declared,
 * overridden by {@code lifecycle.components.<name>.*}, with the origin of each value. The
 * engine checks the options; {@link OptionErrors} reports what it rejects against the
 * setting that fixes it.
 */
@Internal
public final class ComponentOverrides {

	private ComponentOverrides() {
	}

	/**
	 * Applies the {@code lifecycle.components.<name>.*} overrides to declared options.
	 * The engine checks the result when the component is registered; {@link OptionErrors}
	 * reports what it rejects against the setting that fixes it.
	 * @param name the component name
	 * @param declared the options as declared by an annotation, by Spring or in code
	 * @param overrides every {@code lifecycle.components} entry
	 * @return the options and the origin of each value
	 */
	public static Resolved resolve(String name, Declared declared,
			Map<String, LifecycleManagerProperties.Component> overrides) {
		LifecycleManagerProperties.Component override = find(overrides, name);
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
		Resolved resolved = resolve(name, declared, overrides);
		// No property sets it: a supporting component registered in code stays one.
		return new Resolved(resolved.options().withSupporting(options.supporting()), resolved.origins());
	}

	/**
	 * Finds the override entry for a component. Keys are compared in canonical form so
	 * that {@code orderConsumer}, {@code order-consumer} and the environment variable
	 * form {@code ORDERCONSUMER} all name the same component.
	 */
	public static LifecycleManagerProperties.Component find(Map<String, LifecycleManagerProperties.Component> overrides,
			String name) {
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
	public record Declared(int phase, Tier tier, @Nullable Duration gracefulShutdown,
			@Nullable Duration livenessDeadline, int stallThreshold, boolean finite, Origin origin,
			String description) {
	}

	/**
	 * Effective options and where each came from.
	 *
	 * @param options the options the engine gets
	 * @param origins per option name ({@code phase}, {@code tier},
	 * {@code gracefulShutdown}, {@code livenessDeadline}, {@code stallThreshold}), where
	 * its value came from
	 */
	public record Resolved(ComponentOptions options, Map<String, Origin> origins) {
	}

	/** Where an effective option value came from. */
	public enum Origin {

		/** A {@code @ManagedComponent} attribute. */
		ANNOTATION("annotation"),

		/** A {@code lifecycle.components.<name>.*} property (yml, environment, ...). */
		PROPERTY("property"),

		/**
		 * Spring: an adopted bean's phase or
		 * {@code spring.lifecycle.timeout-per-shutdown-phase}.
		 */
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

}
