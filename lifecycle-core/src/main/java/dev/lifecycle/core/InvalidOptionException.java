package dev.lifecycle.core;

import org.jspecify.annotations.Nullable;

/**
 * An option the engine rejects, with the option's name (and the component's, for a component
 * option) kept apart from the message, so an integration can report it against its own setting
 * (a property, an annotation attribute) instead of checking the same rule again.
 */
public final class InvalidOptionException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final @Nullable String component;

	private final String option;

	private final String problem;

	InvalidOptionException(@Nullable String component, String option, String problem) {
		super(((component != null) ? "Component '" + component + "': " : "") + option + " " + problem);
		this.component = component;
		this.option = option;
		this.problem = problem;
	}

	/** The component whose option it is; {@code null} for an option of the manager. */
	public @Nullable String component() {
		return this.component;
	}

	/**
	 * The option as the engine names it: a {@link ComponentOptions} property such as
	 * {@code gracefulShutdown}, or a {@link LifecycleManager.Builder} property such as
	 * {@code drainDelay}.
	 */
	public String option() {
		return this.option;
	}

	/** What is wrong with it and how to fix it, without the option's name. */
	public String problem() {
		return this.problem;
	}

}
