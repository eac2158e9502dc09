package dev.lifecycle.core;

/**
 * How one step of a shutdown sequence ended. A step that failed or timed out makes the
 * report not clean; its label is what logs, observations and JSON reports say.
 */
public enum StepResult {

	/** It finished. */
	OK("ok"),

	/** It threw. */
	FAILED("failed"),

	/** It overran its own timeout and the sequence went on without it. */
	TIMEOUT("timeout"),

	/**
	 * Only in a report read back: a result a newer release wrote, or none at all. The
	 * engine never ends a step with it.
	 */
	UNKNOWN("unknown");

	private final String label;

	StepResult(String label) {
		this.label = label;
	}

	/**
	 * The value in logs, the {@code lifecycle.result} observation key and JSON reports.
	 */
	public String label() {
		return this.label;
	}

}
