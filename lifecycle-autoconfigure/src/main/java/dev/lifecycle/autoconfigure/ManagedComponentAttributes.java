package dev.lifecycle.autoconfigure;

import java.time.Duration;
import java.util.function.UnaryOperator;

import dev.lifecycle.core.Internal;
import dev.lifecycle.spring.ManagedComponent;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.StringUtils;

/**
 * Reads a {@code @ManagedComponent}'s attributes as declared options: placeholders
 * resolved and durations parsed in Spring Boot's format. An attribute that is no duration
 * fails the start naming the attribute and where it sits; whether a value is in range is
 * the engine's to say.
 */
@Internal
public final class ManagedComponentAttributes {

	private ManagedComponentAttributes() {
	}

	/**
	 * The options the annotation declares.
	 * @param annotation the annotation
	 * @param source a description of where the annotation sits, for messages
	 * @param placeholders resolves {@code ${...}} in annotation strings
	 * @return the declared options
	 * @throws InvalidLifecycleConfigurationException when a duration attribute is no
	 * duration
	 */
	public static ComponentOverrides.Declared declared(ManagedComponent annotation, String source,
			UnaryOperator<String> placeholders) {
		return new ComponentOverrides.Declared(annotation.phase(), annotation.tier(),
				parse(annotation.gracefulShutdown(), "gracefulShutdown", source, placeholders),
				parse(annotation.livenessDeadline(), "livenessDeadline", source, placeholders),
				annotation.stallThreshold(), annotation.finite(), ComponentOverrides.Origin.ANNOTATION,
				"@ManagedComponent on " + source);
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

}
