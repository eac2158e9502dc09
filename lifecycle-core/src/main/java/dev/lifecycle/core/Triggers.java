package dev.lifecycle.core;

import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.lifecycle.core.component.EngineThreads;
import dev.lifecycle.core.sequence.Listeners;
import dev.lifecycle.core.sequence.ShutdownSequence;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first trigger wins: it is logged, the ceiling's deadline is set from its instant,
 * and the one shutdown sequence starts, whose first act is to tell the listeners
 * (readiness turns DOWN there) on its own thread; every later trigger is only logged. The
 * sequence runs over a copy of what is registered at that instant, so nothing it walks
 * can change under it, and hands its report to the {@link Termination}.
 */
final class Triggers {

	private static final Logger logger = LoggerFactory.getLogger(Triggers.class);

	private final AtomicReference<@Nullable Fired> fired = new AtomicReference<>();

	private final EngineSettings settings;

	private final ComponentRegistry registry;

	private final EngineThreads threads;

	private final Listeners listeners;

	private final Traffic traffic;

	private final Termination termination;

	Triggers(EngineSettings settings, ComponentRegistry registry, EngineThreads threads, Listeners listeners,
			Traffic traffic, Termination termination) {
		this.settings = settings;
		this.registry = registry;
		this.threads = threads;
		this.listeners = listeners;
		this.traffic = traffic;
		this.termination = termination;
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
		// The shutdown's one clock: its first instant, and the ceiling counted from it.
		long initiatedAt = System.nanoTime();
		Fired candidate = new Fired(new ShutdownTrigger(reason, component, detail), initiatedAt,
				initiatedAt + this.settings.globalShutdownTimeout().toNanos());
		if (!this.fired.compareAndSet(null, candidate)) {
			ShutdownTrigger winner = this.fired.get().trigger();
			logger.info(
					"Lifecycle: shutdown already in progress (reason={}, component={}); ignoring trigger "
							+ "(reason={}, component={})",
					winner.reason().label(), winner.component(), reason.label(), component);
			return false;
		}
		if (detail.isEmpty()) {
			logger.info("Lifecycle: shutdown initiated (reason={}, component={})", reason.label(), component);
		}
		else {
			logger.info("Lifecycle: shutdown initiated (reason={}, component={}, detail={})", reason.label(), component,
					detail);
		}
		new ShutdownSequence(this.registry.freeze(), this.settings.globalShutdownTimeout(),
				this.settings.drain(this.traffic::activity), this.threads, this.listeners, candidate.trigger(),
				candidate.initiatedAt(), candidate.deadline(), this.traffic::failed, this.settings.incompleteExitCode(),
				this.termination::finish)
			.start();
		return true;
	}

	boolean isInitiated() {
		return this.fired.get() != null;
	}

	@Nullable ShutdownTrigger current() {
		Fired current = this.fired.get();
		return (current != null) ? current.trigger() : null;
	}

	/** The ceiling's deadline, on {@link System#nanoTime()}'s scale, once triggered. */
	OptionalLong deadline() {
		Fired current = this.fired.get();
		return (current != null) ? OptionalLong.of(current.deadline()) : OptionalLong.empty();
	}

	/**
	 * The winning trigger, its instant and the ceiling's deadline: stamped once,
	 * together.
	 */
	private record Fired(ShutdownTrigger trigger, long initiatedAt, long deadline) {
	}

}
