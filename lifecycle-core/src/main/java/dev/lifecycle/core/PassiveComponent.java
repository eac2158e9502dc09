package dev.lifecycle.core;

import java.util.Set;

/**
 * A component with start and stop callbacks. {@link #start} runs when the manager starts,
 * in ascending phase order; {@link #stop} runs on an engine thread when the component's
 * phase is told to stop, and its return ends the component (open critical sections still
 * hold it open). A stop callback that throws ends the component at once as
 * {@link Outcome#DIED}.
 */
public interface PassiveComponent {

	/**
	 * Start the component. A throw fails the start: the component ends as
	 * {@link Outcome#DIED} and a shutdown starts with reason
	 * {@link ShutdownReason#START_FAILED}, exit code 1.
	 * @param handle this component's handle
	 * @throws Exception if the component cannot start
	 */
	default void start(ComponentHandle handle) throws Exception {
	}

	/**
	 * Stop the component; it should return within the component's graceful budget.
	 * @param handle this component's handle
	 * @throws Exception if stopping failed; the component ends as died
	 */
	void stop(ComponentHandle handle) throws Exception;

	/**
	 * The threads running the component's work right now (an executor's tasks, say),
	 * named with their stacks when its budget or the global ceiling runs out. Called only
	 * for diagnostics, from any thread; the default knows none besides the engine's own
	 * stop thread.
	 * @return a snapshot, possibly empty
	 */
	default Set<Thread> threads() {
		return Set.of();
	}

}
