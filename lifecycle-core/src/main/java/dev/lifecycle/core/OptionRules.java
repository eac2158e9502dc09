package dev.lifecycle.core;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The range of every duration and count the engine accepts, in one place, so that no arithmetic on
 * a user's value can overflow once the process is shutting down: every accepted duration, plus any
 * other accepted duration and the engine's own slack, still fits a {@code long} of nanoseconds.
 */
final class OptionRules {

	/** The longest duration any option accepts. */
	static final Duration MAX_DURATION = Duration.ofDays(1);

	/** The highest count any option accepts. */
	static final int MAX_COUNT = 10_000;

	private OptionRules() {
	}

	/**
	 * Checks a duration that must be more than zero and at most {@link #MAX_DURATION}.
	 * @throws InvalidOptionException naming the option when it is out of range
	 */
	static void positive(@Nullable String component, String option, Duration value) {
		Objects.requireNonNull(value, option);
		if (value.isNegative() || value.isZero()) {
			throw new InvalidOptionException(component, option, "must be positive but was " + value);
		}
		atMostMaximum(component, option, value);
	}

	/**
	 * Checks a duration that may be zero and must be at most {@link #MAX_DURATION}.
	 * @throws InvalidOptionException naming the option when it is out of range
	 */
	static void notNegative(@Nullable String component, String option, Duration value) {
		Objects.requireNonNull(value, option);
		if (value.isNegative()) {
			throw new InvalidOptionException(component, option, "must not be negative but was " + value);
		}
		atMostMaximum(component, option, value);
	}

	/**
	 * Checks a count against its least value and {@link #MAX_COUNT}.
	 * @throws InvalidOptionException naming the option when it is out of range
	 */
	static void count(@Nullable String component, String option, long value, long least) {
		if (value < least) {
			throw new InvalidOptionException(component, option,
					((least == 0) ? "must not be negative" : "must be at least " + least) + " but was " + value);
		}
		if (value > MAX_COUNT) {
			throw new InvalidOptionException(component, option,
					"must be at most " + MAX_COUNT + " but was " + value);
		}
	}

	private static void atMostMaximum(@Nullable String component, String option, Duration value) {
		if (value.compareTo(MAX_DURATION) > 0) {
			throw new InvalidOptionException(component, option, "must be at most " + MAX_DURATION
					+ " (1 day), the longest duration Lifecycle accepts, but was " + value);
		}
	}

}
