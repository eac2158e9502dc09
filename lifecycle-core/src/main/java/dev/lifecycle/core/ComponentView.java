package dev.lifecycle.core;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A live, read-only view of one registered component, for health contributors, endpoints
 * and gauges. Every method is cheap and safe to call from any thread.
 */
public interface ComponentView {

	String name();

	Tier tier();

	int phase();

	ComponentState state();

	/** Same value as {@link ComponentHandle#isHealthy()}. */
	boolean healthy();

	HealthStatus healthStatus();

	/**
	 * Time since the last heartbeat the monitor observed, measured at poll granularity;
	 * empty when the component is unmonitored or has never reported.
	 */
	Optional<Duration> heartbeatAge();

	/** Critical sections open right now. */
	int openCriticalSections();

	/**
	 * Extra detail: for a critical executor {@code queueDepth} and {@code activeCount}.
	 */
	Map<String, Object> details();

}
