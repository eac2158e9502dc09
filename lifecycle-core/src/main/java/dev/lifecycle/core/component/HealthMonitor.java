package dev.lifecycle.core.component;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.HealthStatus;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.Tier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Judges the components that have a liveness deadline, every poll interval. Stalled means
 * a heartbeat older than the deadline, or an unhealthy report not yet ended by a
 * heartbeat; {@code stallThreshold} stalled polls in a row make a standard component
 * {@link Outcome#DIED died} at once (which starts a shutdown with reason {@code stalled})
 * and only flip an advisory one's health. Components that have ended or were told to stop
 * are no longer judged.
 *
 * <p>
 * Between polls it advances the {@link CoarseClock} heartbeats are stamped with,
 * {@value #TICKS_PER_POLL} times per interval: a stall is found no later than one poll
 * interval after the deadline has passed, and never before the deadline less one tick.
 */
@Internal
public final class HealthMonitor {

	static final int TICKS_PER_POLL = 16;

	private static final Logger logger = LoggerFactory.getLogger(HealthMonitor.class);

	private final Component[] monitored;

	/** Consecutive stalled polls per monitored component; guarded by {@link #lock}. */
	private final int[] stalls;

	private final CoarseClock clock;

	private final ReentrantLock lock = new ReentrantLock();

	public HealthMonitor(List<Component> components, CoarseClock clock) {
		this.monitored = components.stream()
			.filter((c) -> c.options().livenessDeadline().isPresent())
			.toArray(Component[]::new);
		this.stalls = new int[this.monitored.length];
		this.clock = clock;
	}

	/** Schedules the ticks and polls, if any component is monitored. */
	public void start(EngineThreads threads, Duration interval) {
		if (this.monitored.length == 0) {
			return;
		}
		long period = interval.toNanos();
		threads.scheduleAtFixedRate(this.clock::advance,
				Math.max(TimeUnit.MILLISECONDS.toNanos(1), period / TICKS_PER_POLL));
		threads.scheduleAtFixedRate(this::pollSafely, period);
	}

	private void pollSafely() {
		try {
			poll();
		}
		catch (RuntimeException ex) {
			logger.error("Lifecycle: health poll failed", ex);
		}
	}

	/** One health-monitor cycle over every monitored component. */
	public void poll() {
		this.lock.lock();
		try {
			long now = this.clock.advance();
			for (int i = 0; i < this.monitored.length; i++) {
				judge(i, now);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void judge(int index, long now) {
		Component component = this.monitored[index];
		if (component.isEnded() || component.isStopRequested()) {
			return;
		}
		Handle handle = component.handle();
		boolean reportedUnhealthy = handle.reportedUnhealthy();
		long beat = handle.lastHeartbeat();
		if (beat == Handle.NEVER && !reportedUnhealthy) {
			return;
		}
		Duration deadline = component.options().livenessDeadline().orElseThrow();
		long age = now - beat;
		boolean late = beat != Handle.NEVER && age > deadline.toNanos();
		if (!reportedUnhealthy && !late) {
			this.stalls[index] = 0;
			component.healthStatus(HealthStatus.HEALTHY);
			if (!handle.healthy(true)) {
				logger.info("Lifecycle: component '{}' recovered", component.name());
			}
			return;
		}
		int stalled = ++this.stalls[index];
		if (stalled < component.options().stallThreshold()) {
			return;
		}
		boolean wasHealthy = handle.healthy(false);
		component.healthStatus(HealthStatus.STALLED);
		String why = reportedUnhealthy ? "reported unhealthy"
				: "no heartbeat for " + TimeUnit.NANOSECONDS.toMillis(age) + " ms";
		String detail = why + " (liveness deadline " + deadline + ", " + stalled + " consecutive stalled check(s))";
		if (wasHealthy) {
			logger.warn("Lifecycle: component '{}' stalled: {}", component.name(), detail);
		}
		if (component.tier() == Tier.STANDARD || component.tier() == Tier.INFRASTRUCTURE) {
			component.stalled(detail);
		}
	}

}
