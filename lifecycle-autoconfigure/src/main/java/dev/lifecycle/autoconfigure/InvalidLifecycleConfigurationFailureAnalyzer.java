package dev.lifecycle.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Turns an {@link InvalidLifecycleConfigurationException} into a failure analysis naming
 * the setting, where it was set when it is a property, and the fix.
 */
class InvalidLifecycleConfigurationFailureAnalyzer
		extends AbstractFailureAnalyzer<InvalidLifecycleConfigurationException> {

	private final @Nullable Environment environment;

	InvalidLifecycleConfigurationFailureAnalyzer(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidLifecycleConfigurationException cause) {
		StringBuilder description = new StringBuilder();
		description.append("Lifecycle cannot start: '")
			.append(cause.getSetting())
			.append("' ")
			.append(cause.getProblem());
		String origin = origin(cause.getSetting());
		if (origin != null) {
			description.append(" (set in ").append(origin).append(")");
		}
		description.append('.');
		return new FailureAnalysis(description.toString(), cause.getAction(), cause);
	}

	private @Nullable String origin(String setting) {
		if (this.environment == null || !ConfigurationPropertyName.isValid(setting)) {
			return null;
		}
		ConfigurationPropertyName name = ConfigurationPropertyName.of(setting);
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(name);
			if (property != null && property.getOrigin() != null) {
				return property.getOrigin().toString();
			}
		}
		return null;
	}

}
