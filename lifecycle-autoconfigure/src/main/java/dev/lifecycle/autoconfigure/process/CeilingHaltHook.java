package dev.lifecycle.autoconfigure.process;

import dev.lifecycle.core.Internal;

/**
 * Something to do in the last moment before the {@link CeilingWatchdog} halts the JVM,
 * such as pushing the metrics that would otherwise die with the process. Runs on a thread
 * of its own after the watchdog's thread dump; the halt waits for the dump and the hooks
 * together at most {@link CeilingWatchdog#BEFORE_HALT}, then happens whether they
 * finished or not.
 */
@Internal
public interface CeilingHaltHook {

	/**
	 * The JVM is halted right after this returns, or when the time before the halt is up.
	 */
	void beforeHalt();

}
