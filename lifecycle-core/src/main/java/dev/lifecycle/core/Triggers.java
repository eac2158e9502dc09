package dev.lifecycle.core;

import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first trigger wins: it is logged, the listeners hear of it (readiness turns DOWN there) and
 * the shutdown sequence starts; every later trigger is only logged.
 */
final class Triggers {

	private static final Logger logger = LoggerFactory.getLogger(Triggers.class);

	private final AtomicReference<@Nullable ShutdownTrigger> trigger = new AtomicReference<>();

	private final Listeners listeners;

	private final SequenceStarter starter;

	Triggers(Listeners listeners, SequenceStarter starter) {
		this.listeners = listeners;
		this.starter = starter;
	}

	/** Starts the shutdown unless one has started; returns whether this call started it. */
	boolean fire(ShutdownReason reason, String component, String detail) {
		ShutdownTrigger candidate = new ShutdownTrigger(reason, component, detail);
		if (!this.trigger.compareAndSet(null, candidate)) {
			ShutdownTrigger winner = this.trigger.get();
			logger.info("Lifecycle: shutdown already in progress (reason={}, component={}); ignoring trigger "
					+ "(reason={}, component={})", winner.reason().label(), winner.component(), reason.label(),
					component);
			return false;
		}
		long initiatedAt = System.nanoTime();
		if (detail.isEmpty()) {
			logger.info("Lifecycle: shutdown initiated (reason={}, component={})", reason.label(), component);
		}
		else {
			logger.info("Lifecycle: shutdown initiated (reason={}, component={}, detail={})", reason.label(),
					component, detail);
		}
		this.listeners.shutdownInitiated(candidate);
		this.starter.start(candidate, initiatedAt);
		return true;
	}

	boolean isInitiated() {
		return this.trigger.get() != null;
	}

	@Nullable ShutdownTrigger current() {
		return this.trigger.get();
	}

	/** Starts the sequence for the winning trigger. */
	@FunctionalInterface
	interface SequenceStarter {

		void start(ShutdownTrigger trigger, long initiatedAt);

	}

}
