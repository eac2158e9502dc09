package dev.lifecycle.core;

/**
 * What the health monitor last concluded about a component.
 */
public enum HealthStatus {

	/**
	 * The component has no liveness deadline; its health is simply "not shutting down".
	 */
	UNMONITORED,

	/** Monitored but has never reported healthy; the monitor skips it. */
	STARTING,

	/**
	 * Heartbeats arrive within the deadline (or too few polls stalled to reach the
	 * threshold).
	 */
	HEALTHY,

	/**
	 * {@code stallThreshold} consecutive polls found no heartbeat, or an unhealthy
	 * report.
	 */
	STALLED

}
