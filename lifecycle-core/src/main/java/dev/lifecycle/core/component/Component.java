package dev.lifecycle.core.component;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.ComponentState;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.Cut;
import dev.lifecycle.core.HealthStatus;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.Tier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One registered component: its options, its handle, and its life as one
 * {@link LifeState} behind one atomic reference, shown outside the engine as a
 * {@link ComponentState}. Every end, failure, stall, critical-section close and timeout
 * is a transition checked against the state's table, so exactly one outcome is ever
 * recorded and a late finish never rewrites it. The component reports its outcome through
 * {@link ComponentEvents} and knows nothing of the manager. What is in flight for it (its
 * own code running for the engine, its open critical sections, and so the threads at work
 * for it) is {@link InFlightWork}'s to track.
 */
@Internal
public final class Component implements ComponentView {

	private static final Logger logger = LoggerFactory.getLogger(Component.class);

	private final String name;

	private final ComponentOptions options;

	private final int registrationIndex;

	private final Handle handle;

	private final ComponentWork work;

	private final ComponentEvents events;

	private final EngineThreads threads;

	private final CoarseClock clock;

	private final AtomicReference<LifeState> state = new AtomicReference<>(LifeState.REGISTERED);

	/** Its own code running for the engine and its open critical sections. */
	private final InFlightWork inFlight = new InFlightWork(this::settleIfDrained);

	private final CompletableFuture<Outcome> settled = new CompletableFuture<>();

	/**
	 * Whether the manager has run its start. The state alone cannot say: finite work may
	 * be declared done before the start, and such a component must still be started
	 * exactly once.
	 */
	private final AtomicBoolean started = new AtomicBoolean();

	private volatile long stopRequestedAt;

	/** When the shutdown began ({@code System.nanoTime()}), 0 before. */
	private volatile long shutdownInitiatedAt;

	private volatile Duration duration = Duration.ZERO;

	/**
	 * Whether it completed finite work during normal operation, which automatic
	 * completion counts.
	 */
	private volatile boolean finishedWork;

	private volatile HealthStatus healthStatus;

	/** The work it says it leaves unfinished, as last told; empty for none. */
	private volatile List<String> unfinishedWork = List.of();

	/** The work its stop cut short, as the component named it. */
	private final List<Cut> cut = new CopyOnWriteArrayList<>();

	public Component(String name, ComponentOptions options, int registrationIndex, ComponentWork work,
			ComponentEvents events, EngineThreads threads, CoarseClock clock) {
		this.name = name;
		this.options = options;
		this.registrationIndex = registrationIndex;
		this.work = work;
		this.events = events;
		this.threads = threads;
		this.clock = clock;
		boolean monitored = options.livenessDeadline().isPresent();
		this.handle = new Handle(this, clock, monitored);
		this.healthStatus = monitored ? HealthStatus.STARTING : HealthStatus.UNMONITORED;
	}

	public Handle handle() {
		return this.handle;
	}

	public ComponentOptions options() {
		return this.options;
	}

	public int registrationIndex() {
		return this.registrationIndex;
	}

	// ---- transitions
	// ---------------------------------------------------------------------------

	/**
	 * Moves to {@code target} if the table allows it from the current state; returns the
	 * state left, or null.
	 */
	private @Nullable LifeState moveTo(LifeState target) {
		while (true) {
			LifeState current = this.state.get();
			if (!current.canMoveTo(target)) {
				return null;
			}
			if (this.state.compareAndSet(current, target)) {
				return current;
			}
		}
	}

	/** Moves {@code from} to {@code target} only if the component is in {@code from}. */
	private boolean moveFrom(LifeState from, LifeState target) {
		return from.canMoveTo(target) && this.state.compareAndSet(from, target);
	}

	/**
	 * Records an outcome, tells the events (metrics, listeners, triggers), then wakes the
	 * drain.
	 */
	private boolean settle(LifeState outcome, @Nullable ShutdownReason reason, String detail) {
		LifeState left = moveTo(outcome);
		if (left == null) {
			return false;
		}
		settled(left, outcome, reason, detail);
		return true;
	}

	/** A component that never started needs no stopping: it completes at once. */
	private boolean settleNeverStarted() {
		if (moveFrom(LifeState.REGISTERED, LifeState.COMPLETED)) {
			settled(LifeState.REGISTERED, LifeState.COMPLETED, null, "never started");
			return true;
		}
		if (!this.started.get() && moveFrom(LifeState.WORK_COMPLETED, LifeState.COMPLETED)) {
			settled(LifeState.WORK_COMPLETED, LifeState.COMPLETED, null, "never started");
			return true;
		}
		return false;
	}

	private void settled(LifeState left, LifeState outcome, @Nullable ShutdownReason reason, String detail) {
		long requested = this.stopRequestedAt;
		this.duration = (requested != 0) ? Duration.ofNanos(System.nanoTime() - requested) : Duration.ZERO;
		this.finishedWork = outcome == LifeState.COMPLETED && left == LifeState.WORK_COMPLETED;
		this.events.settled(this, reason, detail);
		this.settled.complete(outcome.outcome());
	}

	// ---- start and stop
	// ------------------------------------------------------------------------

	/**
	 * Starts the component on the manager's start thread; a passive start's exception
	 * propagates.
	 */
	public void start() throws Exception {
		if (!this.started.compareAndSet(false, true)) {
			return;
		}
		if (!moveFrom(LifeState.REGISTERED, LifeState.RUNNING) && this.state.get() != LifeState.WORK_COMPLETED) {
			// Settled before its start (told to stop, failed, or ended): there is nothing
			// to run.
			return;
		}
		this.work.start(this);
	}

	/** A passive start callback threw: the component died and the manager shuts down. */
	public void startFailed(Throwable error) {
		logger.error("Lifecycle: component '{}' failed to start", this.name, error);
		settle(LifeState.DIED, ShutdownReason.START_FAILED, String.valueOf(error));
	}

	/**
	 * Runs an active component's loop on this thread; its return or throw ends the
	 * component.
	 */
	void runActive(ActiveComponent active) {
		BusyThread busy = this.inFlight.busy("runs its loop");
		Throwable error = null;
		try {
			active.run(this.handle);
		}
		catch (Throwable ex) {
			error = ex;
		}
		this.inFlight.idle(busy);
		end(error);
	}

	/**
	 * Tells the component to stop and, for passive ones and executors, starts their stop
	 * work.
	 */
	public void requestStop() {
		if (this.stopRequestedAt == 0) {
			this.stopRequestedAt = System.nanoTime();
		}
		this.handle.signalStop();
		if (settleNeverStarted() || (moveTo(LifeState.STOPPING) == null)) {
			// Never started (nothing to stop), or already ending, ended or stopping.
			return;
		}
		if (this.work.hasStopWork()) {
			this.threads.runStopWork("lifecycle-stop-" + this.name, () -> {
				BusyThread busy = this.inFlight.busy("runs its stop callback");
				Throwable error = null;
				try {
					this.work.stop(this);
				}
				catch (Throwable ex) {
					error = ex;
				}
				this.inFlight.idle(busy);
				end(error);
			});
		}
	}

	public boolean isStopRequested() {
		return this.stopRequestedAt != 0;
	}

	/** The budget ran out or the ceiling fired while it still worked. */
	public boolean timeOut() {
		return settleNeverStarted() || settle(LifeState.TIMEOUT, null, "");
	}

	// ---- ends, failures, critical sections
	// -----------------------------------------------------

	/**
	 * The component's process ended, normally ({@code error == null}) or by a throw. Only
	 * the first end counts; an end after an outcome changes nothing.
	 */
	void end(@Nullable Throwable error) {
		LifeState current = this.state.get();
		if (current.isTerminal() || current == LifeState.ENDING) {
			return;
		}
		boolean stopping = current == LifeState.STOPPING || this.events.isShutdownInitiated();
		if (error != null) {
			if (settle(LifeState.DIED, ShutdownReason.DIED, String.valueOf(error))) {
				logger.error(stopping ? "Lifecycle: component '{}' threw while shutting down"
						: "Lifecycle: component '{}' died", this.name, error);
			}
			return;
		}
		if (!stopping && current != LifeState.WORK_COMPLETED) {
			if (settle(LifeState.DIED, ShutdownReason.DIED, "ended")) {
				logger.error("Lifecycle: component '{}' ended during normal operation without workCompleted()",
						this.name);
			}
			return;
		}
		finishWhenSectionsClose(current);
	}

	private void finishWhenSectionsClose(LifeState current) {
		if (this.inFlight.openCriticalSections() == 0) {
			settle(LifeState.COMPLETED, null, "");
			return;
		}
		if (!moveFrom(current, LifeState.ENDING)) {
			// Lost a race (told to stop, or work completed, meanwhile): judge again from
			// the new state.
			end(null);
			return;
		}
		settleIfDrained();
	}

	/** An ended component completes once its last critical section closes. */
	private void settleIfDrained() {
		if (this.inFlight.openCriticalSections() == 0 && this.state.get() == LifeState.ENDING) {
			settle(LifeState.COMPLETED, null, "");
		}
	}

	void signalFailure(String reason, @Nullable Throwable cause) {
		if (!settle(LifeState.DIED, ShutdownReason.FAILURE, reason)) {
			logger.warn("Lifecycle: component '{}' signalled failure after it ended ({}); ignored", this.name, reason);
			return;
		}
		if (cause != null) {
			logger.error("Lifecycle: component '{}' signalled failure: {}", this.name, reason, cause);
		}
		else {
			logger.error("Lifecycle: component '{}' signalled failure: {}", this.name, reason);
		}
	}

	/**
	 * The health monitor's verdict: a standard component that stalled is dead at that
	 * instant.
	 */
	void stalled(String detail) {
		settle(LifeState.DIED, ShutdownReason.STALLED, detail);
	}

	/**
	 * Running or not yet started: its end becomes a completion. Told to stop, its end is
	 * one already; ended, nothing is left to mark.
	 */
	void workCompleted() {
		while (true) {
			LifeState current = this.state.get();
			if (current != LifeState.RUNNING && current != LifeState.REGISTERED) {
				return;
			}
			if (this.state.compareAndSet(current, LifeState.WORK_COMPLETED)) {
				return;
			}
		}
	}

	ComponentHandle.ProcessScope processScope() {
		BusyThread busy = this.inFlight.hasBusyThread() ? null : this.inFlight.busy("opened its process scope");
		AtomicBoolean closed = new AtomicBoolean();
		return () -> {
			if (closed.compareAndSet(false, true)) {
				this.inFlight.idle(busy);
				end(null);
			}
		};
	}

	ComponentHandle.CriticalSection openCritical() {
		return this.inFlight.openCritical();
	}

	public void unfinishedWork(List<String> work) {
		this.unfinishedWork = List.copyOf(work);
	}

	public List<String> unfinishedWork() {
		return this.unfinishedWork;
	}

	void requestShutdown(Duration delay) {
		this.events.shutdownRequested(this, delay);
	}

	public CompletableFuture<Outcome> settled() {
		return this.settled;
	}

	public @Nullable Outcome outcome() {
		LifeState current = this.state.get();
		return current.isTerminal() ? current.outcome() : null;
	}

	public boolean isDead() {
		return this.state.get() == LifeState.DIED;
	}

	boolean isEnded() {
		LifeState current = this.state.get();
		return current.isTerminal() || current == LifeState.ENDING;
	}

	public boolean finishedWork() {
		return this.finishedWork;
	}

	/**
	 * The threads at work for this component right now, each with what it does for it,
	 * for the diagnostics of a budget or ceiling overrun.
	 */
	public List<BusyThread> busyThreads() {
		return this.inFlight.busyThreads(this.work, isStopRequested());
	}

	/** Why no thread is at work for this component, in terms true for its kind. */
	public String withoutThreads() {
		return this.work.withoutThreads(isStopRequested());
	}

	/**
	 * The instant the shutdown began ({@code System.nanoTime()}), from which its report
	 * measures when it was told to stop.
	 */
	public void shutdownInitiatedAt(long nanos) {
		this.shutdownInitiatedAt = nanos;
	}

	public ComponentReport report() {
		long origin = this.shutdownInitiatedAt;
		long requested = this.stopRequestedAt;
		Duration start = (origin != 0 && requested != 0) ? Duration.ofNanos(Math.max(0, requested - origin)) : null;
		return new ComponentReport(this.name, this.options.tier(), this.options.phase(), outcome(), start,
				this.duration, List.copyOf(this.cut));
	}

	public void recordCut(Cut what) {
		this.cut.add(what);
	}

	void logCallbackFailure(RuntimeException ex) {
		logger.error("Lifecycle: onShutdown callback of component '{}' threw", this.name, ex);
	}

	void healthStatus(HealthStatus status) {
		this.healthStatus = status;
	}

	// ---- ComponentView
	// -------------------------------------------------------------------------

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public Tier tier() {
		return this.options.tier();
	}

	@Override
	public int phase() {
		return this.options.phase();
	}

	@Override
	public ComponentState state() {
		LifeState current = this.state.get();
		if (current == LifeState.WORK_COMPLETED && !this.started.get()) {
			// Its finite work was declared done before the manager started it: it has not
			// started yet.
			return ComponentState.REGISTERED;
		}
		return current.shown();
	}

	@Override
	public boolean healthy() {
		return this.handle.isHealthy();
	}

	@Override
	public HealthStatus healthStatus() {
		return this.healthStatus;
	}

	@Override
	public Optional<Duration> heartbeatAge() {
		long last = this.handle.lastHeartbeat();
		if (last == Handle.NEVER) {
			return Optional.empty();
		}
		return Optional.of(Duration.ofNanos(Math.max(0, this.clock.now() - last)));
	}

	@Override
	public int openCriticalSections() {
		return this.inFlight.openCriticalSections();
	}

	@Override
	public Map<String, Object> details() {
		return this.work.details();
	}

	@Override
	public String toString() {
		return "Component[" + this.name + ", " + this.options.tier() + ", phase " + this.options.phase() + "]";
	}

}
