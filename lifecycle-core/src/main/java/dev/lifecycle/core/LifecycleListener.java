package dev.lifecycle.core;

/**
 * Everything the engine tells the outside world, in order: metrics, readiness publishing
 * and the process exit are all listeners. Callbacks run on the engine's threads and must
 * return quickly; an exception thrown by a listener is logged and the other listeners
 * still hear of the event.
 */
public interface LifecycleListener {

	/**
	 * Called once per component as it is registered, before the manager starts; the view
	 * stays live, so a health gauge can be bound to it.
	 * @param component the component
	 */
	default void onComponentRegistered(ComponentView component) {
	}

	/**
	 * Called at start when a run marker is kept and something is known of the previous
	 * process: that it ended without finishing a shutdown (its marker was still there:
	 * SIGKILL, OOM kill, forced exit, global ceiling), or how its shutdown went (its
	 * report).
	 * @param previous what is known of the previous process
	 */
	default void onPreviousRun(PreviousRun previous) {
	}

	/**
	 * Called at the first instant of a shutdown, as the first act of the shutdown
	 * sequence on its own thread (never on the thread that fired the trigger, such as the
	 * JVM's signal thread), before the drain delay and before any component is told to
	 * stop. Readiness must turn DOWN here.
	 * @param trigger what started the shutdown
	 */
	default void onShutdownInitiated(ShutdownTrigger trigger) {
	}

	/**
	 * Called when a step of the sequence begins (the drain delay, a shutdown handler, a
	 * phase of the standard drain, a final action, the observability drain or a closing
	 * step); the matching {@link #onStepCompleted(StepReport)} carries the same name.
	 * Steps never overlap.
	 * @param step the step's name, as {@link StepReport#name()} will give it
	 */
	default void onStepStarted(String step) {
	}

	/**
	 * Called when the sequence tells a component that has not ended yet to stop, just
	 * before it is told; its {@link #onComponentEnded(ComponentReport)} follows, whenever
	 * it ends. Components of one phase are told one after another on the sequence's
	 * thread and then drained concurrently.
	 * @param component the component
	 */
	default void onComponentStopping(ComponentView component) {
	}

	/**
	 * Called once when a component's outcome is recorded, whenever that is: a death
	 * during normal operation, a completion of finite work, or its end in the shutdown.
	 * @param report the component's outcome
	 */
	default void onComponentEnded(ComponentReport report) {
	}

	/**
	 * Called when a step of the sequence has finished, before the next one starts.
	 * @param step the step
	 */
	default void onStepCompleted(StepReport step) {
	}

	/**
	 * Called once when the sequence ends, including when the global ceiling fires
	 * ({@link ShutdownReport#ceilingFired()}).
	 * @param report the shutdown report
	 */
	default void onShutdownCompleted(ShutdownReport report) {
	}

	/**
	 * Called on the signal's thread when a second signal forces the process to exit
	 * before the sequence finished, just before the caller halts the JVM: the last moment
	 * to record the forced exit (the shutdown report does). It must return within a
	 * fraction of a second; no {@link #onShutdownCompleted(ShutdownReport)} follows.
	 * @param exitCode the code the process is about to exit with,
	 * {@link ExitCodes#FORCED}
	 */
	default void onForcedExit(int exitCode) {
	}

	/**
	 * Called just before the host halts a process still alive after the global ceiling
	 * (what ran after the sequence held it: a bean's destruction, a JVM shutdown hook),
	 * whatever the report said: the last moment to record that the process ends with
	 * {@link ExitCodes#CEILING}. It must return within a fraction of a second.
	 * @param exitCode the code the process is about to exit with,
	 * {@link ExitCodes#CEILING}
	 * @param heldBy what held the process, for the report
	 */
	default void onHalted(int exitCode, String heldBy) {
	}

}
