package dev.lifecycle.autoconfigure.component;

/**
 * The one bean that ties a context to the engine: the {@link LifecycleCoordinator} of the
 * context that runs the engine, or the {@link ContextJoin} of a child context that joined
 * it. The lifecycle processor leaves it to Spring and tells it when a bean's start fails.
 */
interface EngineLink {

	/**
	 * A bean's start threw and the refresh is failing: the shutdown is a failed start
	 * naming the bean and the cause; this returns once its report exists.
	 */
	void startFailed(String bean, Throwable cause);

}
