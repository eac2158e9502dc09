package dev.lifecycle.core;

import org.jspecify.annotations.Nullable;

/**
 * An option the engine rejects, with the option's name (and the component's, for a
 * component option), the {@link Kind kind} of the problem and, for a value out of range,
 * the limit it crossed, all kept apart from the message, so an integration can report it
 * against its own setting (a property, an annotation attribute) instead of checking the
 * same rule again or reading the message.
 */
public final class InvalidOptionException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final @Nullable String component;

	private final String option;

	private final Kind kind;

	private final @Nullable String limit;

	private final String problem;

	public InvalidOptionException(@Nullable String component, String option, Kind kind, @Nullable String limit,
			String problem) {
		super(((component != null) ? "Component '" + component + "': " : "") + option + " " + problem);
		this.component = component;
		this.option = option;
		this.kind = kind;
		this.limit = limit;
		this.problem = problem;
	}

	/**
	 * An option whose value is unusable as set (a path that holds something else, say).
	 */
	public InvalidOptionException(@Nullable String component, String option, String problem) {
		this(component, option, Kind.INVALID, null, problem);
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

	/** What kind of problem it is. */
	public Kind kind() {
		return this.kind;
	}

	/**
	 * For {@link Kind#TOO_SMALL} and {@link Kind#TOO_LARGE}, the least or greatest value
	 * the option accepts, written as a Spring Boot property value is ({@code 1ms},
	 * {@code 24h}, {@code 10000}); otherwise {@code null}.
	 */
	public @Nullable String limit() {
		return this.limit;
	}

	/** What is wrong with it, without the option's name. */
	public String problem() {
		return this.problem;
	}

	/** The kinds of problem an option can have. */
	public enum Kind {

		/** Below the least value the option accepts, which {@link #limit()} gives. */
		TOO_SMALL,

		/** Above the greatest value the option accepts, which {@link #limit()} gives. */
		TOO_LARGE,

		/** Not set, though the component's other options require it. */
		REQUIRED,

		/** Set, though the component's other options (its tier, say) exclude it. */
		NOT_ALLOWED,

		/** Out of order with another option, which the problem names. */
		CONFLICT,

		/** A relative path where the option needs an absolute one. */
		NOT_ABSOLUTE,

		/** Unusable as set: a path that holds something else, say. */
		INVALID

	}

}
