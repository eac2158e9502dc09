package dev.lifecycle.core.component;

import java.util.EnumSet;
import java.util.Set;

import dev.lifecycle.core.ComponentState;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.Outcome;

/**
 * The engine's own state of a component, the one behind its atomic reference: every move
 * is checked against this table, so exactly one outcome is ever recorded. Outside the
 * engine each state shows as the {@link ComponentState} a user can observe
 * ({@link #shown()}): the two that only the engine needs to tell apart,
 * {@link #WORK_COMPLETED} and {@link #ENDING}, show as {@code RUNNING} and
 * {@code STOPPING}.
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
 * A failure signal, a stall verdict or a throw moves any non-terminal state to
 * {@link #DIED} at once; only the sequence's budget or the global ceiling moves one to
 * {@link #TIMEOUT}.
 */
@Internal
public enum LifeState {

	/** Registered; the manager has not started it yet. */
	REGISTERED(ComponentState.REGISTERED),

	/** Started and not yet told to stop. */
	RUNNING(ComponentState.RUNNING),

	/**
	 * Has declared its finite work done, while running or before the manager started it:
	 * its end will be a completion.
	 */
	WORK_COMPLETED(ComponentState.RUNNING),

	/** Told to stop; draining. */
	STOPPING(ComponentState.STOPPING),

	/** Its code has returned; waiting for its open critical sections to close. */
	ENDING(ComponentState.STOPPING),

	/** Ended with {@link Outcome#COMPLETED}. */
	COMPLETED(ComponentState.COMPLETED),

	/** Ended with {@link Outcome#TIMEOUT}. */
	TIMEOUT(ComponentState.TIMEOUT),

	/** Ended with {@link Outcome#DIED}. */
	DIED(ComponentState.DIED);

	private final ComponentState shown;

	private Set<LifeState> next;

	LifeState(ComponentState shown) {
		this.shown = shown;
	}

	static {
		REGISTERED.next = EnumSet.of(RUNNING, WORK_COMPLETED, COMPLETED, DIED);
		RUNNING.next = EnumSet.of(WORK_COMPLETED, STOPPING, ENDING, COMPLETED, DIED, TIMEOUT);
		WORK_COMPLETED.next = EnumSet.of(STOPPING, ENDING, COMPLETED, DIED, TIMEOUT);
		STOPPING.next = EnumSet.of(ENDING, COMPLETED, DIED, TIMEOUT);
		ENDING.next = EnumSet.of(COMPLETED, DIED, TIMEOUT);
		COMPLETED.next = EnumSet.noneOf(LifeState.class);
		TIMEOUT.next = EnumSet.noneOf(LifeState.class);
		DIED.next = EnumSet.noneOf(LifeState.class);
	}

	/** Whether the transition table allows moving from this state to {@code target}. */
	boolean canMoveTo(LifeState target) {
		return this.next.contains(target);
	}

	/** Whether this state is an outcome: nothing changes a component after it. */
	boolean isTerminal() {
		return this.next.isEmpty();
	}

	/** The state a user observes for this one. */
	ComponentState shown() {
		return this.shown;
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

}
