package dev.lifecycle.core.component;

import dev.lifecycle.core.Internal;

/**
 * A source of monotonic nanoseconds for the health monitor; tests supply their own to
 * make stall detection deterministic. Not part of the public API.
 */
@FunctionalInterface
@Internal
public interface Ticker {

	/**
	 * The current value in nanoseconds; only differences between two readings are
	 * meaningful.
	 */
	long nanoTime();

	/** A ticker backed by {@link System#nanoTime()}. */
	static Ticker system() {
		return System::nanoTime;
	}

}
