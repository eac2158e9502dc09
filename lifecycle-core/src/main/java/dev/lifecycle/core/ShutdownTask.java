package dev.lifecycle.core;

/**
 * Bounded work the shutdown sequence runs on a thread of its own: a shutdown handler
 * (after the drain delay, before any component stops, so a final checkpoint can still use
 * a live pipeline), a closing step or a last step. One that throws or overruns its
 * timeout is logged, the sequence goes on, and the report is not clean (exit code
 * {@link ExitCodes#FAILURE}), because its work, a final backup say, may be missing.
 */
@FunctionalInterface
public interface ShutdownTask {

	/**
	 * Do the shutdown work.
	 * @throws Exception anything; it is logged, the sequence goes on and the report is
	 * not clean
	 */
	void shutdown() throws Exception;

}
