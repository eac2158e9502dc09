package dev.lifecycle.core;

/**
 * The kinds of step a shutdown sequence runs, in their order. Each has one text label,
 * the start of every step name in logs, observations and JSON reports, so a reader can
 * group steps by kind without parsing names that carry a handler's name or a phase.
 */
public enum ShutdownStep {

	/** Readiness is DOWN and traffic drains; always the first step. */
	DRAIN_DELAY("drain delay"),

	/** One shutdown handler, named. */
	SHUTDOWN_HANDLER("shutdown handler"),

	/** One phase of the standard tier. */
	STANDARD_DRAIN("standard drain"),

	/** One final action, named. */
	FINAL_ACTION("final action"),

	/** The observability tier, all at once. */
	OBSERVABILITY_DRAIN("observability drain"),

	/** One closing step, named (the web server's stop, say). */
	CLOSING_STEP("closing step"),

	/** One phase of the infrastructure tier. */
	INFRASTRUCTURE_DRAIN("infrastructure drain"),

	/** One last step, named (a separate management server's stop, say). */
	LAST_STEP("last step");

	private final String label;

	ShutdownStep(String label) {
		this.label = label;
	}

	/** The step kind as logs and reports spell it, e.g. {@code "standard drain"}. */
	public String label() {
		return this.label;
	}

	/**
	 * The name of one step of this kind that runs a named piece of work:
	 * {@code shutdown handler 'backup'}.
	 */
	public String named(String name) {
		return this.label + " '" + name + "'";
	}

	/**
	 * The name of one step of this kind that drains a phase:
	 * {@code standard drain, phase 10}.
	 */
	public String phase(int phase) {
		return this.label + ", phase " + phase;
	}

}
