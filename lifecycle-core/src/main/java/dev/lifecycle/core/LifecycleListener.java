package dev.lifecycle.core;

/**
 * Everything the engine tells the outside world, in order: metrics, readiness publishing and the
 * process exit are all listeners. Callbacks run on the engine's threads and must return quickly;
 * an exception thrown by a listener is logged and the other listeners still hear of the event.
 */
public interface LifecycleListener {

	/**
	 * Called once per component as it is registered, before the manager starts; the view stays
	 * live, so a health gauge can be bound to it.
	 * @param component the component
	 */
	default void onComponentRegistered(ComponentView component) {
	}

	/**
	 * Called at start when the previous process left its run marker behind: it ended without
	 * finishing a shutdown (SIGKILL, OOM kill, forced exit, global ceiling).
	 * @param marker what the previous process wrote into its marker (its pid and start time)
	 */
	default void onUncleanPreviousRun(String marker) {
	}

	/**
	 * Called on the triggering thread at the first instant of a shutdown, before the drain delay
	 * and before any component is told to stop. Readiness must turn DOWN here.
	 * @param trigger what started the shutdown
	 */
	default void onShutdownInitiated(ShutdownTrigger trigger) {
	}

	/**
	 * Called once when a component's outcome is recorded, whenever that is: a death during normal
	 * operation, a completion of finite work, or its end in the shutdown.
	 * @param report the component's outcome
	 */
	default void onComponentEnded(ComponentReport report) {
	}

	/**
	 * Called once when the sequence ends, including when the global ceiling fires
	 * ({@link ShutdownReport#ceilingFired()}).
	 * @param report the shutdown report
	 */
	default void onShutdownCompleted(ShutdownReport report) {
	}

}
