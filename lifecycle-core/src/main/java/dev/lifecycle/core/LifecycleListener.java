package dev.lifecycle.core;

/**
 * Callbacks from the engine, for integrations such as readiness publishing. Callbacks run on the
 * engine's threads and must return quickly; an exception thrown by a listener is logged and
 * ignored.
 */
public interface LifecycleListener {

	/**
	 * Called on the triggering thread at the first instant of a shutdown, before the drain delay
	 * and before any component is told to stop. Readiness must turn DOWN here.
	 * @param trigger what started the shutdown
	 */
	default void onShutdownInitiated(ShutdownTrigger trigger) {
	}

	/**
	 * Called once when a component's outcome is recorded.
	 * @param report the component's outcome
	 */
	default void onComponentEnded(ComponentReport report) {
	}

	/**
	 * Called once when the sequence ends, including when the global ceiling fires.
	 * @param report the shutdown report
	 */
	default void onShutdownCompleted(ShutdownReport report) {
	}

}
