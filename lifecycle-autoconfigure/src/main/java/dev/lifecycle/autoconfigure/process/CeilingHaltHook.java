package dev.lifecycle.autoconfigure.process;

import dev.lifecycle.core.Internal;

/**
 * Something to do in the last moment before the {@link ShutdownExit} halts a JVM that
 * outlived the ceiling, such as pushing the metrics that would otherwise die with the
 * process. Runs on a thread of its own after the thread dump (see
 * {@link BeforeCeilingHalt}); the halt waits for the dump and the hooks together at most
 * {@link CeilingBounds#BEFORE_HALT}, then happens whether they finished or not.
 */
@Internal
public interface CeilingHaltHook {

	/**
	 * The JVM is halted right after this returns, or when the time before the halt is up.
	 */
	void beforeHalt();

}
