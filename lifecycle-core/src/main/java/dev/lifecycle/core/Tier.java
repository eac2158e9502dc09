package dev.lifecycle.core;

/**
 * How much a component's life decides the life of the process.
 *
 * <p>The tier fixes three things: whether the component's failure, death or stall starts a
 * coordinated shutdown, whether the shutdown sequence waits for it, and when it is told to stop.
 */
public enum Tier {

	/**
	 * Business components. Failure, death or a stall triggers shutdown; the standard drain waits for
	 * them, phase by phase, each bounded by its graceful budget and the global ceiling.
	 */
	STANDARD,

	/**
	 * Metrics, health and infrastructure endpoints. They keep running while every standard
	 * component drains and are told to stop only afterwards, with a 1 s budget unless one is set.
	 * They cannot have a liveness deadline. A failure or death during normal operation still
	 * triggers shutdown.
	 */
	OBSERVABILITY,

	/**
	 * Observed, never decisive: monitored for health (it must have a liveness deadline) but its
	 * stalls and its death never trigger shutdown and the sequence never waits for it. It cannot have
	 * a graceful budget.
	 */
	ADVISORY
}
