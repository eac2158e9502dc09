package dev.lifecycle.core;

import java.util.OptionalLong;

/**
 * What only the host that runs the engine inside a process tells it: the requests its
 * server served, and that a second signal forces the exit. In a Spring application the
 * Spring layer is the host and the only caller; a program that runs the engine without
 * Spring is its own host. These calls are kept off {@link LifecycleManager} so that the
 * code of components never sees them.
 */
public interface LifecycleHost {

	/** The host of this manager. */
	static LifecycleHost of(LifecycleManager manager) {
		return manager.host();
	}

	/**
	 * Records that a request arrived: an uncontended counter increment, no clock read.
	 * Only the adaptive drain uses it, to end the drain delay once traffic has gone
	 * quiet.
	 */
	void recordActivity();

	/**
	 * Records that a request failed (a 5xx, or failed by the server). Only failures after
	 * the trigger count, in {@link ShutdownReport#failedRequests()}: earlier ones are not
	 * the shutdown's.
	 */
	void recordFailedRequest();

	/**
	 * Records that a second signal forces the exit before the sequence finished: the
	 * listeners hear of it, so the report on disk says {@code forced} before this
	 * returns, and the run marker stays; a sequence that ends after this call no longer
	 * changes the records. If the sequence had already ended, nothing is recorded and its
	 * report's exit code is returned.
	 * @return {@link ExitCodes#FORCED}, or the finished report's exit code, for the
	 * caller to exit with at once
	 */
	int forceExit();

	/**
	 * Records that the host halts the process with {@link ExitCodes#CEILING} because it
	 * was still alive after the global ceiling, held by what ran after the sequence: the
	 * report on disk then says {@code ceiling}, that exit code and not clean, with what
	 * held the process, even if the sequence had finished cleanly. Nothing is recorded
	 * before a shutdown began or after a forced exit. Returns within a fraction of a
	 * second.
	 * @param heldBy what held the process, e.g. the threads still at work
	 */
	void recordHalt(String heldBy);

	/**
	 * When the global ceiling runs out, on the scale of {@link System#nanoTime()}: the
	 * trigger's instant plus {@link LifecycleManager#globalShutdownTimeout()}, set once
	 * when the shutdown begins and never moved; empty before. The sequence's ceiling
	 * fires at this instant, and every bound a host puts on the rest of the process's end
	 * (its halt, its wait for the report) is an offset of it, so that all run on one
	 * clock.
	 */
	OptionalLong ceilingDeadline();

	/**
	 * Lets another part of the application join the engine after its start, such as a
	 * child application context built once its parent runs: until {@link #startJoined()},
	 * components, shutdown handlers, final actions and closing and last steps may be
	 * registered again, as before the start, and one shutdown then drains them with the
	 * others, in one order. Once the shutdown has begun, registration is refused. Before
	 * the start this changes nothing.
	 */
	void openToJoin();

	/**
	 * Starts the components that joined since {@link #openToJoin()}, in ascending phase
	 * order, as {@link LifecycleManager#start()} starts the others (their liveness
	 * deadlines are watched too), and closes that join. After a trigger nothing starts:
	 * the shutdown settles them. Before the start it starts nothing: the start will.
	 * @throws IllegalStateException if a passive start callback threw (the manager is
	 * then shutting down with reason {@link ShutdownReason#START_FAILED})
	 */
	void startJoined();

}
