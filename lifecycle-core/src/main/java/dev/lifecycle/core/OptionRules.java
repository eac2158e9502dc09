package dev.lifecycle.core;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The range of every duration and count the engine accepts, in one place. The upper
 * bounds keep every arithmetic on a user's value from overflowing once the process is
 * shutting down: every accepted duration, plus any other accepted duration and the
 * engine's own slack, still fits a {@code long} of nanoseconds. The lower bounds keep a
 * typo from turning a bound into nothing or a period into a busy loop.
 */
final class OptionRules {

	/** The longest duration any option accepts. */
	static final Duration MAX_DURATION = Duration.ofDays(1);

	/**
	 * The shortest timeout, budget or deadline: the engine's clocks tick no finer, so
	 * anything shorter ({@code 1ns}, {@code 0.0001s}) is a typo, not a bound the engine
	 * could honour.
	 */
	static final Duration MIN_DURATION = Duration.ofMillis(1);

	/**
	 * The shortest period of work the engine repeats: each one wakes a thread, shorter is
	 * a busy loop.
	 */
	static final Duration MIN_PERIOD = Duration.ofMillis(10);

	/** The highest count any option accepts. */
	static final int MAX_COUNT = 10_000;

	/** The highest exit code: a process's status keeps only its low eight bits. */
	static final int MAX_EXIT_CODE = 255;

	private OptionRules() {
	}

	/**
	 * Checks a timeout, budget or deadline: at least {@link #MIN_DURATION}, at most
	 * {@link #MAX_DURATION}.
	 * @throws InvalidOptionException naming the option when it is out of range
	 */
	static void positive(@Nullable String component, String option, Duration value) {
		atLeast(component, option, value, MIN_DURATION);
	}

	/**
	 * Checks the period of repeated work: at least {@link #MIN_PERIOD}, at most
	 * {@link #MAX_DURATION}.
	 * @throws InvalidOptionException naming the option when it is out of range
	 */
	static void period(@Nullable String component, String option, Duration value) {
		atLeast(component, option, value, MIN_PERIOD);
	}

	/**
	 * Checks a duration that may be zero and must be at most {@link #MAX_DURATION}.
	 * @throws InvalidOptionException naming the option when it is out of range
	 */
	static void notNegative(@Nullable String component, String option, Duration value) {
		Objects.requireNonNull(value, option);
		if (value.isNegative()) {
			throw new InvalidOptionException(component, option, InvalidOptionException.Kind.TOO_SMALL, "0s",
					"must not be negative but was " + value);
		}
		atMostMaximum(component, option, value);
	}

	/**
	 * Checks a count against its least value and {@link #MAX_COUNT}.
	 * @throws InvalidOptionException naming the option when it is out of range
	 */
	static void count(@Nullable String component, String option, long value, long least) {
		if (value < least) {
			throw new InvalidOptionException(component, option, InvalidOptionException.Kind.TOO_SMALL,
					Long.toString(least),
					((least == 0) ? "must not be negative" : "must be at least " + least) + " but was " + value);
		}
		if (value > MAX_COUNT) {
			throw new InvalidOptionException(component, option, InvalidOptionException.Kind.TOO_LARGE,
					Integer.toString(MAX_COUNT), "must be at most " + MAX_COUNT + " but was " + value);
		}
	}

	/**
	 * Checks the code a service chooses for an incomplete shutdown: within a process
	 * status's range, and never a code that already says something else, so that the code
	 * alone still tells what happened. Clean (0) is allowed: a service may decide that
	 * unfinished work is no concern of whoever watches its exit.
	 * @throws InvalidOptionException naming the option when the code is out of range or
	 * taken
	 */
	static void incompleteExitCode(String option, int value) {
		if (value < 0) {
			throw new InvalidOptionException(null, option, InvalidOptionException.Kind.TOO_SMALL, "0",
					"must not be negative but was " + value);
		}
		if (value > MAX_EXIT_CODE) {
			throw new InvalidOptionException(null, option, InvalidOptionException.Kind.TOO_LARGE,
					Integer.toString(MAX_EXIT_CODE), "must be at most " + MAX_EXIT_CODE + " but was " + value);
		}
		for (ExitCodes.Code code : ExitCodes.declared()) {
			if (code.code() == value && value != ExitCodes.CLEAN && value != ExitCodes.INCOMPLETE) {
				throw new InvalidOptionException(null, option, InvalidOptionException.Kind.INVALID, null,
						"must not be " + value + ", which already means '" + code.name() + "'");
			}
		}
	}

	/**
	 * A duration as a Spring Boot property value is written: {@code 10ms}, {@code 24h}.
	 */
	static String written(Duration value) {
		if (value.toMillis() % 3_600_000 == 0 && !value.isZero()) {
			return value.toHours() + "h";
		}
		if (value.toMillis() % 1000 == 0) {
			return value.toSeconds() + "s";
		}
		return value.toMillis() + "ms";
	}

	private static void atLeast(@Nullable String component, String option, Duration value, Duration least) {
		Objects.requireNonNull(value, option);
		if (value.isNegative() || value.isZero()) {
			throw new InvalidOptionException(component, option, InvalidOptionException.Kind.TOO_SMALL, written(least),
					"must be positive but was " + value);
		}
		if (value.compareTo(least) < 0) {
			throw new InvalidOptionException(component, option, InvalidOptionException.Kind.TOO_SMALL, written(least),
					"must be at least " + written(least) + " but was " + value);
		}
		atMostMaximum(component, option, value);
	}

	private static void atMostMaximum(@Nullable String component, String option, Duration value) {
		if (value.compareTo(MAX_DURATION) > 0) {
			throw new InvalidOptionException(component, option, InvalidOptionException.Kind.TOO_LARGE,
					written(MAX_DURATION), "must be at most " + MAX_DURATION
							+ " (1 day), the longest duration Lifecycle accepts, but was " + value);
		}
	}

}
