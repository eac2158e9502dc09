package dev.lifecycle.autoconfigure.process;

import dev.lifecycle.core.Internal;

/**
 * Something to do in the last moment before the {@link CeilingWatchdog} halts the JVM, such as
 * pushing the metrics that would otherwise die with the process. Runs on the watchdog's thread
 * and must bound its own time: the halt waits for it.
 */
@Internal
public interface CeilingHaltHook {

	/** The JVM is halted right after this returns. */
	void beforeHalt();

}
