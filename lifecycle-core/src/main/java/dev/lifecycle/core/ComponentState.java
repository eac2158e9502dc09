package dev.lifecycle.core;

/**
 * Where a component is in its life. The three terminal states mirror {@link Outcome}.
 */
public enum ComponentState {

	/** Registered; the manager has not started it yet. */
	REGISTERED,

	/** Started and not yet told to stop. */
	RUNNING,

	/** Told to stop; draining. */
	STOPPING,

	/** Ended with {@link Outcome#COMPLETED}. */
	COMPLETED,

	/** Ended with {@link Outcome#TIMEOUT}. */
	TIMEOUT,

	/** Ended with {@link Outcome#DIED}. */
	DIED;

	static ComponentState of(Outcome outcome) {
		return switch (outcome) {
			case COMPLETED -> COMPLETED;
			case TIMEOUT -> TIMEOUT;
			case DIED -> DIED;
		};
	}

}
