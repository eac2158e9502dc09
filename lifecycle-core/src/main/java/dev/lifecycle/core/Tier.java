package dev.lifecycle.core;

/**
 * How much a component's life decides the life of the process.
 *
 * <p>
 * The tier fixes three things: whether the component's failure, death or stall starts a
 * coordinated shutdown, whether the shutdown sequence waits for it, and when it is told
 * to stop. The order in which the tiers are told to stop is the engine's one rule of
 * "what is used stops after what uses it": standard, then observability, then (after the
 * closing steps) infrastructure; advisory components are told with the observability ones
 * and never waited for.
 */
public enum Tier {

	/**
	 * Business components. Failure, death or a stall triggers shutdown; the standard
	 * drain waits for them, phase by phase, each bounded by its graceful budget and the
	 * global ceiling.
	 */
	STANDARD,

	/**
	 * Metrics, health and infrastructure endpoints. They keep running while every
	 * standard component drains and are told to stop only afterwards, with a 1 s budget
	 * unless one is set. They cannot have a liveness deadline. A failure or death during
	 * normal operation still triggers shutdown.
	 */
	OBSERVABILITY,

	/**
	 * Observed, never decisive: monitored for health (it must have a liveness deadline)
	 * but its stalls and its death never trigger shutdown and the sequence never waits
	 * for it. It cannot have a graceful budget.
	 */
	ADVISORY,

	/**
	 * What the other components and the web server's requests use: task executors,
	 * schedulers, connection pools, message producers and clients. Its failure, death or
	 * stall triggers shutdown as a standard component's does, and the sequence waits for
	 * it within its budget, but it is told to stop last: after the standard drain, the
	 * final actions, the observability drain and the closing steps (the web server has
	 * stopped taking requests by then), by phase, highest first. Whatever its phase
	 * number, nothing that uses it meets it stopped.
	 */
	INFRASTRUCTURE,

	/**
	 * Only in a report read back: a tier a newer release wrote, or none at all. No
	 * component has it: options with it are refused.
	 */
	UNKNOWN;

	/**
	 * What this tier decides, as the manual's table of tiers says it: that table is
	 * generated from this declaration, and no other page lists the tiers.
	 * @return the tier's rules
	 */
	public Rules rules() {
		return switch (this) {
			case STANDARD -> new Rules("starts a coordinated shutdown (exit 1)",
					"yes, phase by phase, within its budget", "in the standard drain, by phase", "—");
			case OBSERVABILITY ->
				new Rules("failure or death during normal operation starts a shutdown; it cannot stall",
						"yes, 1 s budget unless one is set", "after every standard component has ended",
						"no liveness deadline");
			case ADVISORY -> new Rules("never starts a shutdown (its `isHealthy()` and gauge flip)", "never",
					"with the observability tier, and not waited for",
					"liveness deadline required; no graceful budget; not finite");
			case INFRASTRUCTURE ->
				new Rules("starts a coordinated shutdown (exit 1)", "yes, phase by phase, within its budget",
						"last: after the web server has stopped, by phase", "not finite");
			case UNKNOWN -> new Rules("—", "—", "—", "not a tier of this release");
		};
	}

	/**
	 * What a tier decides, in the manual's words (Markdown).
	 *
	 * @param failure what its failure, death or stall does
	 * @param waitedFor whether and how the shutdown waits for it
	 * @param toldToStop when it is told to stop
	 * @param options the options it requires or refuses, or a dash
	 */
	public record Rules(String failure, String waitedFor, String toldToStop, String options) {

	}

}
