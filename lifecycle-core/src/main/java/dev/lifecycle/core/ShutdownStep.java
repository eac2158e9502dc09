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
	LAST_STEP("last step"),

	/**
	 * Only in a report read back: a kind a newer release wrote, or none at all (a report
	 * of an older release). The engine never runs a step of it.
	 */
	UNKNOWN("unknown");

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

	/**
	 * What a step of this kind does, as the manual's list of the sequence's steps says
	 * it: that list is generated from this declaration, in this order, and no other page
	 * lists the steps.
	 * @return one or two sentences, in Markdown
	 */
	public String meaning() {
		return switch (this) {
			case DRAIN_DELAY -> "`lifecycle.drain-delay`: keep serving so load balancers stop routing first.";
			case SHUTDOWN_HANDLER -> "One after another, while every component still runs.";
			case STANDARD_DRAIN -> "Phases from highest to lowest, `@ManagedComponent`s and adopted Spring lifecycle "
					+ "beans alike; a phase's components are told to stop at once and drained concurrently, each "
					+ "within its budget; critical sections hold their component open.";
			case FINAL_ACTION -> "In reverse order of registration.";
			case OBSERVABILITY_DRAIN -> "Observability components are told to stop (1 s budget by default); advisory "
					+ "ones are told to stop and not waited for.";
			case CLOSING_STEP -> "The web server's graceful shutdown (in-flight requests finish) and its stop, bounded "
					+ "by `spring.lifecycle.timeout-per-shutdown-phase` and the ceiling, on Tomcat, Jetty and "
					+ "Reactor Netty alike. No request arrives after this.";
			case INFRASTRUCTURE_DRAIN -> "Infrastructure components (executors, schedulers, pools, clients), phases "
					+ "from highest to lowest as in the standard drain, whatever their phase numbers: nothing that "
					+ "uses them is left running.";
			case LAST_STEP -> "The separate management server (`management.server.port`) stops, so the probes and "
					+ "`/actuator/prometheus` answer until here.";
			case UNKNOWN -> "A step a report read back named by a kind this release does not know.";
		};
	}

}
