package dev.lifecycle.core;

/**
 * A source of monotonic nanoseconds for the health monitor. Tests supply their own to make stall
 * detection deterministic; production uses {@link #system()}.
 */
@FunctionalInterface
public interface Ticker {

	/** The current value in nanoseconds; only differences between two readings are meaningful. */
	long nanoTime();

	/** A ticker backed by {@link System#nanoTime()}. */
	static Ticker system() {
		return System::nanoTime;
	}

}
