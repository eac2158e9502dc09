package dev.lifecycle.core;

import java.util.EnumSet;
import java.util.Set;

/**
 * Where a component is in its life, as {@link ComponentView#state()}, the health contributor and
 * the {@code lifecycle} endpoint show it. A component moves only forward through these states and
 * never leaves a terminal one ({@link #isTerminal()}); the three terminal states mirror
 * {@link Outcome}. The transition rules are the engine's own and not API:
 *
 * <pre>
 * from            to
 * REGISTERED      RUNNING, WORK_COMPLETED (its work declared done before the start),
 *                 COMPLETED (told to stop before it started), DIED (its start failed)
 * RUNNING         WORK_COMPLETED, STOPPING, ENDING, COMPLETED, DIED, TIMEOUT
 * WORK_COMPLETED  STOPPING, ENDING, COMPLETED, DIED, TIMEOUT
 * STOPPING        ENDING, COMPLETED, DIED, TIMEOUT
 * ENDING          COMPLETED, DIED, TIMEOUT
 * COMPLETED, TIMEOUT, DIED: terminal
 * </pre>
 *
 * A failure signal, a stall verdict or a throw moves any non-terminal state to {@link #DIED} at
 * once; only the sequence's budget or the global ceiling moves one to {@link #TIMEOUT}.
 */
public enum ComponentState {

	/** Registered; the manager has not started it yet. */
	REGISTERED,

	/** Started and not yet told to stop. */
	RUNNING,

	/**
	 * Has declared its finite work done, while running or before the manager started it: its end
	 * will be a completion.
	 */
	WORK_COMPLETED,

	/** Told to stop; draining. */
	STOPPING,

	/** Its process ended; waiting for its open critical sections to close. */
	ENDING,

	/** Ended with {@link Outcome#COMPLETED}. */
	COMPLETED,

	/** Ended with {@link Outcome#TIMEOUT}. */
	TIMEOUT,

	/** Ended with {@link Outcome#DIED}. */
	DIED;

	private Set<ComponentState> next;

	static {
		REGISTERED.next = EnumSet.of(RUNNING, WORK_COMPLETED, COMPLETED, DIED);
		RUNNING.next = EnumSet.of(WORK_COMPLETED, STOPPING, ENDING, COMPLETED, DIED, TIMEOUT);
		WORK_COMPLETED.next = EnumSet.of(STOPPING, ENDING, COMPLETED, DIED, TIMEOUT);
		STOPPING.next = EnumSet.of(ENDING, COMPLETED, DIED, TIMEOUT);
		ENDING.next = EnumSet.of(COMPLETED, DIED, TIMEOUT);
		COMPLETED.next = EnumSet.noneOf(ComponentState.class);
		TIMEOUT.next = EnumSet.noneOf(ComponentState.class);
		DIED.next = EnumSet.noneOf(ComponentState.class);
	}

	/** Whether the transition table allows moving from this state to {@code target}. */
	boolean canMoveTo(ComponentState target) {
		return this.next.contains(target);
	}

	/** Whether this state is an outcome: nothing changes a component after it. */
	public boolean isTerminal() {
		return this.next.isEmpty();
	}

	/** The outcome this terminal state stands for. */
	Outcome outcome() {
		return switch (this) {
			case COMPLETED -> Outcome.COMPLETED;
			case TIMEOUT -> Outcome.TIMEOUT;
			case DIED -> Outcome.DIED;
			default -> throw new IllegalStateException(this + " is not an outcome");
		};
	}

	static ComponentState of(Outcome outcome) {
		return switch (outcome) {
			case COMPLETED -> COMPLETED;
			case TIMEOUT -> TIMEOUT;
			case DIED -> DIED;
		};
	}

}
