package dev.lifecycle.autoconfigure.process;

/**
 * Something to do in the last moment before the {@link CeilingWatchdog} halts the JVM, such as
 * pushing the metrics that would otherwise die with the process. Runs on the watchdog's thread
 * and must bound its own time: the halt waits for it.
 *
 * <p>Not API: public only for Lifecycle's own packages.
 */
public interface CeilingHaltHook {

	/** The JVM is halted right after this returns. */
	void beforeHalt();

}
