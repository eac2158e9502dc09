package dev.lifecycle.core.sequence;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import dev.lifecycle.core.Internal;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The drain delay's wait: its whole length, or, when a quiet period is set, until no
 * request has arrived for that long, never shorter than the minimum (load balancers need
 * that long to notice readiness DOWN at all).
 *
 * @param delay the longest drain
 * @param quietPeriod end the drain once no activity was seen for this long; {@code null}
 * for a fixed delay
 * @param minimum never end it before this
 * @param activity a count that moves whenever a request arrives
 */
@Internal
public record DrainWait(Duration delay, @Nullable Duration quietPeriod, Duration minimum, LongSupplier activity) {

	// Logged under the sequence's name, as every other line of the shutdown's steps.
	private static final Logger logger = LoggerFactory.getLogger(ShutdownSequence.class);

	private static final long QUIET_CHECK_INTERVAL = TimeUnit.MILLISECONDS.toNanos(25);

	/**
	 * Waits for the drain to end.
	 * @param initiatedAt the {@link System#nanoTime()} at which the shutdown began
	 */
	void await(long initiatedAt) throws InterruptedException {
		long end = initiatedAt + this.delay.toNanos();
		if (this.quietPeriod == null) {
			sleepUntil(end);
		}
		else {
			untilQuiet(initiatedAt, end, this.quietPeriod);
		}
	}

	private static void sleepUntil(long end) throws InterruptedException {
		long remaining;
		while ((remaining = end - System.nanoTime()) > 0) {
			TimeUnit.NANOSECONDS.sleep(remaining);
		}
	}

	private void untilQuiet(long initiatedAt, long end, Duration quiet) throws InterruptedException {
		long minimumEnd = initiatedAt + this.minimum.toNanos();
		long seen = this.activity.getAsLong();
		long lastActivity = initiatedAt;
		long now;
		while ((now = System.nanoTime()) < end) {
			TimeUnit.NANOSECONDS.sleep(Math.min(end - now, QUIET_CHECK_INTERVAL));
			now = System.nanoTime();
			long activity = this.activity.getAsLong();
			if (activity != seen) {
				seen = activity;
				lastActivity = now;
			}
			if (now >= minimumEnd && now - lastActivity >= quiet.toNanos() && now < end) {
				logger.info("Lifecycle: drain ended after {} ms: quiet for {}",
						TimeUnit.NANOSECONDS.toMillis(now - initiatedAt), quiet);
				return;
			}
		}
	}

}
