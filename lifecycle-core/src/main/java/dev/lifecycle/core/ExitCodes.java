package dev.lifecycle.core;

/**
 * The process exit codes Lifecycle uses, so that the code alone says what happened.
 */
public final class ExitCodes {

	/**
	 * A clean shutdown: signal, pre-stop file, a requested shutdown or all finite work
	 * completed.
	 */
	public static final int CLEAN = 0;

	/**
	 * A component failed, died or stalled, or a shutdown handler or closing step threw or
	 * timed out (its work may be missing).
	 */
	public static final int FAILURE = 1;

	/**
	 * Work was cut short and left for a later run, though nothing failed: a component's
	 * budget ran out while it still worked, or a component left work unfinished (a batch
	 * job stopped between chunks, or still running at its budget). Retrying the run
	 * resumes it.
	 */
	public static final int INCOMPLETE = 3;

	/** A second SIGTERM/SIGINT forced an immediate exit; the sequence did not finish. */
	public static final int FORCED = 128;

	/** The global shutdown ceiling fired with components still running. */
	public static final int CEILING = 129;

	private ExitCodes() {
	}

}
