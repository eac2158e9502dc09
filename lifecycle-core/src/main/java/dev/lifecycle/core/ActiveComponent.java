package dev.lifecycle.core;

/**
 * A component that runs a loop on a thread the engine provides. Returning or throwing
 * ends the component: during shutdown that is completion, during normal operation it is a
 * death unless the component called {@link ComponentHandle#workCompleted()} first. A
 * throw is always a death.
 */
@FunctionalInterface
public interface ActiveComponent {

	/**
	 * Run until {@link ComponentHandle#isShuttingDown()} or the work is done.
	 * @param handle this component's handle
	 * @throws Exception anything; it counts as a death
	 */
	void run(ComponentHandle handle) throws Exception;

}
