package dev.lifecycle.core;

/**
 * Work that runs at the start of the shutdown sequence, after the drain delay and before any
 * component is told to stop, so it can still use a live pipeline (a final checkpoint, say). Each
 * handler runs on its own thread bounded by its own timeout; a handler that throws or times out is
 * logged, the sequence goes on, and the report is not clean (exit code {@link ExitCodes#FAILURE}):
 * its work, a final backup say, may be missing.
 */
@FunctionalInterface
public interface ShutdownHandler {

	/**
	 * Do the shutdown work.
	 * @throws Exception anything; it is logged, the sequence goes on and the report is not clean
	 */
	void shutdown() throws Exception;

}
