package dev.lifecycle.core;

import java.time.Duration;

/**
 * The metrics SPI the engine reports to. An implementation maps these calls onto the five
 * Lifecycle series; the engine calls each method from its own threads and never on a component's
 * hot path. Implementations must not throw.
 */
public interface LifecycleMetrics {

	/** Called once per registered component, before start, so a health gauge can be bound to it. */
	default void componentRegistered(ComponentView component) {
	}

	/** A shutdown started (the first trigger only). */
	default void shutdownInitiated(ShutdownTrigger trigger) {
	}

	/** A standard or observability component's outcome was recorded. */
	default void componentEnded(String component, Outcome result, Duration duration) {
	}

	/** The sequence ended normally; not called when the ceiling fires or the exit is forced. */
	default void shutdownCompleted(boolean clean) {
	}

	/** The run marker of a previous process was found at start: that process ended uncleanly. */
	default void uncleanPreviousRun() {
	}

	/** A metrics SPI that records nothing. */
	static LifecycleMetrics noop() {
		return NoopLifecycleMetrics.INSTANCE;
	}

}
