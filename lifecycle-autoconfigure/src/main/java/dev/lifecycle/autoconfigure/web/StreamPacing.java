package dev.lifecycle.autoconfigure.web;

import java.time.Duration;
import java.util.Map;
import java.util.random.RandomGenerator;

import dev.lifecycle.autoconfigure.InvalidLifecycleConfigurationException;
import dev.lifecycle.autoconfigure.LifecycleStreamsProperties;

/**
 * How long the ends of a number of open streams are spread over, and when each one ends.
 * The spread is what the rate asks for ({@code streams ÷ rate}), capped at the window, so
 * that a few streams end at once and thousands end over the whole window. The schedule is
 * even with jitter: the spread is cut into as many equal slots as there are streams, and
 * each stream ends at a random instant of its own slot, so that the instances that stay
 * up never see more than about one slot's share of reconnections at a time, even after
 * the pacer fell behind ({@link #due(long, long, int)}).
 *
 * @param window the longest spread; zero ends every stream in one instant
 * @param ratePerSecond the most streams to end in one second while the window allows it
 */
record StreamPacing(Duration window, int ratePerSecond) {

	/** One instant: every stream ends at once. */
	static final StreamPacing INSTANT = new StreamPacing(Duration.ZERO, 1);

	StreamPacing {
		if (window.isNegative()) {
			throw new IllegalArgumentException("window must not be negative: " + window);
		}
		if (ratePerSecond < 1) {
			throw new IllegalArgumentException("ratePerSecond must be at least 1: " + ratePerSecond);
		}
	}

	private static final String WINDOW = "lifecycle.streams.end-window";

	private static final String RATE = "lifecycle.streams.end-rate";

	/**
	 * The pacing the settings ask for. Without a window of its own it is the drain delay,
	 * at most half of each server's budget for its stop and of what the global timeout
	 * leaves after the drain delay; a window set explicitly must fit in each, or the
	 * streams still waiting for their end would be cut.
	 * @param streams the {@code lifecycle.streams} settings
	 * @param drainDelay the resolved drain delay
	 * @param globalTimeout the global shutdown timeout
	 * @param budgets each server's budget for the streams open at its stop, by the
	 * property that sets it (the web server's graceful budget, gRPC's grace period); a
	 * negative budget is unbounded
	 * @throws InvalidLifecycleConfigurationException for a window or rate that cannot
	 * work
	 */
	static StreamPacing of(LifecycleStreamsProperties streams, Duration drainDelay, Duration globalTimeout,
			Map<String, Duration> budgets) {
		if (streams.getEndRate() < 1) {
			throw new InvalidLifecycleConfigurationException(RATE, "must be at least 1 but was " + streams.getEndRate(),
					"Set '" + RATE + "' to the most streams to end per second, such as 500.");
		}
		Duration left = globalTimeout.minus(drainDelay);
		Duration window = streams.getEndWindow();
		if (window == null) {
			Duration derived = min(drainDelay, left.dividedBy(2));
			for (Duration budget : budgets.values()) {
				if (!budget.isNegative()) {
					derived = min(derived, budget.dividedBy(2));
				}
			}
			return new StreamPacing(derived.isNegative() ? Duration.ZERO : derived, streams.getEndRate());
		}
		if (window.isNegative()) {
			throw new InvalidLifecycleConfigurationException(WINDOW, "must not be negative but was " + window,
					"Set '" + WINDOW + "' to 0s to end every stream at once, or to a window such as 5s.");
		}
		for (Map.Entry<String, Duration> budget : budgets.entrySet()) {
			if (!budget.getValue().isNegative() && window.compareTo(budget.getValue()) >= 0) {
				throw new InvalidLifecycleConfigurationException(WINDOW,
						"must be shorter than '" + budget.getKey() + "' (" + budget.getValue()
								+ "), which would cut the streams still waiting for their end, but was " + window,
						"Shorten '" + WINDOW + "' or raise '" + budget.getKey() + "'.");
			}
		}
		if (window.compareTo(left) >= 0) {
			throw new InvalidLifecycleConfigurationException(WINDOW,
					"must be shorter than what 'lifecycle.global-shutdown-timeout' (" + globalTimeout
							+ ") leaves after the drain delay (" + drainDelay + "), but was " + window,
					"Shorten '" + WINDOW + "' or raise 'lifecycle.global-shutdown-timeout'.");
		}
		return new StreamPacing(window, streams.getEndRate());
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	/** How long the ends of this many streams are spread over. */
	Duration spread(int streams) {
		if (streams <= 1 || this.window.isZero()) {
			return Duration.ZERO;
		}
		Duration atRate = Duration.ofNanos(Math.round(streams * 1e9 / this.ratePerSecond));
		return (atRate.compareTo(this.window) < 0) ? atRate : this.window;
	}

	/**
	 * When each of this many streams ends, in nanoseconds from the first instant, in
	 * increasing order: stream {@code k} ends within slot {@code k} of the spread.
	 */
	long[] schedule(int streams, RandomGenerator random) {
		long[] offsets = new long[streams];
		long spread = spread(streams).toNanos();
		if (spread == 0) {
			return offsets;
		}
		double slot = (double) spread / streams;
		for (int k = 0; k < streams; k++) {
			offsets[k] = (long) ((k + random.nextDouble()) * slot);
		}
		return offsets;
	}

	/**
	 * When the next end is due: at its instant in the schedule, but never sooner than
	 * {@link #leastGap(int) the least gap} after the previous end, so that ends that fell
	 * behind their schedule (a pause of the JVM, a busy machine) follow each other at
	 * 1.25 times the even rate at most rather than in one burst.
	 * @param scheduled the instant the schedule gives it, in {@link System#nanoTime()}
	 * @param previousEnd the instant the previous end ran
	 * @param streams how many streams the schedule ends
	 */
	long due(long scheduled, long previousEnd, int streams) {
		return Math.max(scheduled, previousEnd + leastGap(streams));
	}

	/** The least time between two ends, in nanoseconds: four fifths of a slot. */
	long leastGap(int streams) {
		long spread = spread(streams).toNanos();
		return (spread == 0) ? 0 : spread / streams * 4 / 5;
	}

}
