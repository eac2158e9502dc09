package dev.lifecycle.core;

/**
 * Where a component is in its life, as {@link ComponentView#state()}, the health
 * contributor and the {@code lifecycle} endpoint show it. A component moves only forward
 * through these states, possibly skipping some (one told to stop before it started goes
 * from {@link #REGISTERED} to {@link #COMPLETED}), and never leaves a terminal one
 * ({@link #isTerminal()}); the three terminal states mirror {@link Outcome}. How a
 * component moves between them is the engine's own.
 */
public enum ComponentState {

	/** Registered; the manager has not started it yet. */
	REGISTERED,

	/**
	 * Started and not yet told to stop, including once it has declared its finite work
	 * done and until its code returns.
	 */
	RUNNING,

	/**
	 * Ending: told to stop and draining, or its code has returned and its open critical
	 * sections still hold it.
	 */
	STOPPING,

	/** Ended with {@link Outcome#COMPLETED}. */
	COMPLETED,

	/** Ended with {@link Outcome#TIMEOUT}. */
	TIMEOUT,

	/** Ended with {@link Outcome#DIED}. */
	DIED;

	/** Whether this state is an outcome: nothing changes a component after it. */
	public boolean isTerminal() {
		return this == COMPLETED || this == TIMEOUT || this == DIED;
	}

}
