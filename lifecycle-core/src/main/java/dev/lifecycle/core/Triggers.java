package dev.lifecycle.core;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first trigger wins: it is logged and the shutdown sequence starts, whose first act
 * is to tell the listeners (readiness turns DOWN there) on its own thread; every later
 * trigger is only logged.
 */
final class Triggers {

	private static final Logger logger = LoggerFactory.getLogger(Triggers.class);

	private final AtomicReference<@Nullable ShutdownTrigger> trigger = new AtomicReference<>();

	private final SequenceLauncher launcher;

	Triggers(SequenceLauncher launcher) {
		this.launcher = launcher;
	}

	/**
	 * A trigger from outside the engine: only the reasons an outside caller can stand
	 * for; a stall, a death and completed work are the engine's own verdicts.
	 * @throws IllegalArgumentException for {@code STALLED}, {@code DIED} or
	 * {@code COMPLETED}
	 */
	boolean fireFromOutside(ShutdownReason reason, String source, String detail) {
		Objects.requireNonNull(reason, "reason");
		Objects.requireNonNull(source, "source");
		Objects.requireNonNull(detail, "detail");
		if (reason == ShutdownReason.UNKNOWN) {
			throw new IllegalArgumentException("Shutdown reason UNKNOWN only describes a report read back; "
					+ "use SIGNAL, PRESTOP, REQUESTED, FAILURE or START_FAILED");
		}
		if (reason == ShutdownReason.STALLED || reason == ShutdownReason.DIED || reason == ShutdownReason.COMPLETED) {
			throw new IllegalArgumentException("Shutdown reason " + reason + " is the engine's own verdict and "
					+ "cannot be triggered from outside; use SIGNAL, PRESTOP, REQUESTED, FAILURE or START_FAILED");
		}
		return fire(reason, source, detail);
	}

	/**
	 * Starts the shutdown unless one has started; returns whether this call started it.
	 */
	boolean fire(ShutdownReason reason, String component, String detail) {
		ShutdownTrigger candidate = new ShutdownTrigger(reason, component, detail);
		if (!this.trigger.compareAndSet(null, candidate)) {
			ShutdownTrigger winner = this.trigger.get();
			logger.info(
					"Lifecycle: shutdown already in progress (reason={}, component={}); ignoring trigger "
							+ "(reason={}, component={})",
					winner.reason().label(), winner.component(), reason.label(), component);
			return false;
		}
		long initiatedAt = System.nanoTime();
		if (detail.isEmpty()) {
			logger.info("Lifecycle: shutdown initiated (reason={}, component={})", reason.label(), component);
		}
		else {
			logger.info("Lifecycle: shutdown initiated (reason={}, component={}, detail={})", reason.label(), component,
					detail);
		}
		this.launcher.launch(candidate, initiatedAt);
		return true;
	}

	boolean isInitiated() {
		return this.trigger.get() != null;
	}

	@Nullable ShutdownTrigger current() {
		return this.trigger.get();
	}

}
