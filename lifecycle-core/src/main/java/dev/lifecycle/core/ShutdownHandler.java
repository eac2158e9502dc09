package dev.lifecycle.core;

/**
 * Work that runs at the start of the shutdown sequence, after the drain delay and before any
 * component is told to stop, so it can still use a live pipeline (a final checkpoint, say). Each
 * handler runs on its own thread bounded by its own timeout; a handler that throws or times out is
 * logged and the sequence goes on.
 */
@FunctionalInterface
public interface ShutdownHandler {

	/**
	 * Do the shutdown work.
	 * @throws Exception anything; it is logged and the sequence goes on
	 */
	void shutdown() throws Exception;

}
