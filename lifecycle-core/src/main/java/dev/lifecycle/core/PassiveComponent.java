package dev.lifecycle.core;

/**
 * A component with start and stop callbacks. {@link #start} runs when the manager starts, in
 * ascending phase order; {@link #stop} runs on an engine thread when the component's phase is told
 * to stop, and its return ends the component (open critical sections still hold it open). A stop
 * callback that throws ends the component at once as {@link Outcome#DIED}.
 */
public interface PassiveComponent {

	/**
	 * Start the component. A throw fails the start and triggers a shutdown with reason
	 * {@link ShutdownReason#FAILURE}.
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

}
