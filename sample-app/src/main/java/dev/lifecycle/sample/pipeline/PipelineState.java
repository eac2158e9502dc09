package dev.lifecycle.sample.pipeline;

/**
 * The pipeline's states: {@code STARTING → RUNNING → STOPPING → STOPPED}, or
 * {@code FAILED} from any of them. STOPPED and FAILED are terminal.
 */
public enum PipelineState {

	/** Recovered from the checkpoint and the log, not yet consuming. */
	STARTING,

	/** Consuming the log and checkpointing. */
	RUNNING,

	/** Told to stop: finishing what it has read, then writing the final checkpoint. */
	STOPPING,

	/** Stopped with a final checkpoint that covers every event it consumed. */
	STOPPED,

	/**
	 * Stopped by an error; the last successful checkpoint and the log are still
	 * consistent.
	 */
	FAILED;

	/** Whether no further transition will happen. */
	public boolean isTerminal() {
		return this == STOPPED || this == FAILED;
	}

}
