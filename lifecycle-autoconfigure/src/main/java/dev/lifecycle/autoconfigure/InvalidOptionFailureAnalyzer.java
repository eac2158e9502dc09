package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.InvalidOptionException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Reports a component option the engine rejected when the registration happened in
 * application code (a {@code @Bean} method calling {@code LifecycleManager.register…}):
 * against the {@code lifecycle.components.<name>.<option>} property that fixes it, like
 * every other invalid Lifecycle setting; a manager option (the run marker found holding
 * something else, say) is reported against its {@code lifecycle.*} property in the same
 * way.
 */
@Internal
public class InvalidOptionFailureAnalyzer extends AbstractFailureAnalyzer<InvalidOptionException> {

	private final InvalidLifecycleConfigurationFailureAnalyzer delegate;

	public InvalidOptionFailureAnalyzer(Environment environment) {
		this.delegate = new InvalidLifecycleConfigurationFailureAnalyzer(environment);
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidOptionException cause) {
		InvalidLifecycleConfigurationException translated = (cause.component() != null)
				? OptionErrors.component(cause, null) : OptionErrors.manager(cause);
		return this.delegate.analyze(rootFailure, translated);
	}

}
