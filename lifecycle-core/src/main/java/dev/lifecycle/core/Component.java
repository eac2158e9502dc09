package dev.lifecycle.core;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One registered component: its options, its handle and the state machine that turns ends,
 * failures, critical sections and timeouts into exactly one {@link Outcome}.
 */
final class Component implements ComponentView {

	private static final Logger logger = LoggerFactory.getLogger(LifecycleManager.class);

	private final String name;

	private final ComponentOptions options;

	private final int registrationIndex;

	private final LifecycleManager manager;

	private final ComponentHandle handle;

	private final ActiveComponent active;

	private final PassiveComponent passive;

	private final CriticalExecutor executor;

	private final long deadlineNanos;

	private final AtomicBoolean ended = new AtomicBoolean();

	private final AtomicInteger openCritical = new AtomicInteger();

	private final AtomicReference<Outcome> outcome = new AtomicReference<>();

	private final CompletableFuture<Outcome> settled = new CompletableFuture<>();

	private volatile ComponentState state = ComponentState.REGISTERED;

	private volatile boolean workCompleted;

	private volatile boolean abnormal;

	private volatile boolean endedDuringNormalOperation;

	private volatile long stopRequestedAt;

	private volatile Duration duration = Duration.ZERO;

	/** The thread that best explains where the component is: its run, stop or scope thread. */
	private volatile Thread thread;

	// Owned by the health monitor's single thread; published through the volatile fields below.
	private long lastHeartbeat;

	private boolean everReported;

	private int consecutiveStalls;

	private volatile long lastHeartbeatPublished;

	private volatile boolean heartbeatSeen;

	private volatile HealthStatus healthStatus;

	Component(String name, ComponentOptions options, int registrationIndex, LifecycleManager manager,
			ActiveComponent active, PassiveComponent passive, CriticalExecutor executor) {
		this.name = name;
		this.options = options;
		this.registrationIndex = registrationIndex;
		this.manager = manager;
		this.active = active;
		this.passive = passive;
		this.executor = executor;
		boolean monitored = options.livenessDeadline().isPresent();
		this.deadlineNanos = options.livenessDeadline().map(Duration::toNanos).orElse(Long.MAX_VALUE);
		this.handle = new ComponentHandle(this, monitored);
		this.healthStatus = monitored ? HealthStatus.STARTING : HealthStatus.UNMONITORED;
	}

	ComponentHandle handle() {
		return this.handle;
	}

	ComponentOptions options() {
		return this.options;
	}

	int registrationIndex() {
		return this.registrationIndex;
	}

	// ---- start and stop ------------------------------------------------------------------------

	/** Starts the component on the manager's start thread; passive start exceptions propagate. */
	void start() throws Exception {
		this.state = ComponentState.RUNNING;
		if (this.passive != null) {
			this.passive.start(this.handle);
		}
		else if (this.active != null) {
			Thread runner = this.manager.newThread("lifecycle-" + this.name, this::runActive);
			this.thread = runner;
			runner.start();
		}
	}

	private void runActive() {
		Throwable error = null;
		try {
			this.active.run(this.handle);
		}
		catch (Throwable ex) {
			error = ex;
		}
		end(error);
	}

	/** Tells the component to stop and, for passive ones and executors, starts their stop work. */
	void requestStop() {
		if (this.stopRequestedAt != 0) {
			return;
		}
		this.stopRequestedAt = System.nanoTime();
		boolean neverStarted = this.state == ComponentState.REGISTERED;
		if (this.outcome.get() == null) {
			this.state = ComponentState.STOPPING;
		}
		this.handle.signalStop();
		if (this.ended.get()) {
			return;
		}
		if (neverStarted) {
			// Never started: nothing to stop.
			end(null);
		}
		else if (this.passive != null) {
			this.manager.runStopWork("lifecycle-stop-" + this.name, () -> {
				this.thread = Thread.currentThread();
				runPassiveStop();
			});
		}
		else if (this.executor != null) {
			this.manager.runStopWork("lifecycle-stop-" + this.name, () -> {
				this.thread = Thread.currentThread();
				runExecutorStop();
			});
		}
	}

	private void runPassiveStop() {
		Throwable error = null;
		try {
			this.passive.stop(this.handle);
		}
		catch (Throwable ex) {
			error = ex;
		}
		end(error);
	}

	private void runExecutorStop() {
		Throwable error = null;
		try {
			this.executor.drain();
		}
		catch (Throwable ex) {
			error = ex;
		}
		end(error);
	}

	boolean isStopRequested() {
		return this.stopRequestedAt != 0;
	}

	// ---- ends, failures, critical sections -----------------------------------------------------

	/** The component's process ended, normally ({@code error == null}) or by a throw. Only the first end counts. */
	void end(Throwable error) {
		if (!this.ended.compareAndSet(false, true)) {
			return;
		}
		boolean shuttingDown = this.manager.isShutdownInitiated();
		if (error != null) {
			this.abnormal = true;
			if (shuttingDown) {
				logger.error("Lifecycle: component '{}' threw while shutting down", this.name, error);
			}
			else {
				logger.error("Lifecycle: component '{}' died", this.name, error);
			}
		}
		else if (!shuttingDown && !this.workCompleted) {
			this.abnormal = true;
			this.endedDuringNormalOperation = true;
			logger.error("Lifecycle: component '{}' ended during normal operation without workCompleted()",
					this.name);
		}
		else if (!shuttingDown) {
			this.endedDuringNormalOperation = true;
		}
		if (this.abnormal && !shuttingDown && this.options.tier() != Tier.ADVISORY) {
			this.manager.trigger(ShutdownReason.DIED, this.name, (error != null) ? String.valueOf(error) : "ended");
		}
		settleIfDrained();
	}

	void signalFailure(String reason, Throwable cause) {
		this.abnormal = true;
		if (cause != null) {
			logger.error("Lifecycle: component '{}' signalled failure: {}", this.name, reason, cause);
		}
		else {
			logger.error("Lifecycle: component '{}' signalled failure: {}", this.name, reason);
		}
		this.manager.trigger(ShutdownReason.FAILURE, this.name, reason);
	}

	/** A passive start callback threw: the component died and the manager shuts down. */
	void startFailed(Throwable error) {
		this.abnormal = true;
		logger.error("Lifecycle: component '{}' failed to start", this.name, error);
		this.manager.trigger(ShutdownReason.FAILURE, this.name, "start failed: " + error);
		if (this.ended.compareAndSet(false, true)) {
			settleIfDrained();
		}
	}

	void requestShutdown(Duration delay) {
		this.manager.requestShutdown(this.name, delay);
	}

	void workCompleted() {
		this.workCompleted = true;
	}

	ComponentHandle.ProcessScope processScope() {
		if (this.thread == null) {
			this.thread = Thread.currentThread();
		}
		AtomicBoolean closed = new AtomicBoolean();
		return () -> {
			if (closed.compareAndSet(false, true)) {
				end(null);
			}
		};
	}

	ComponentHandle.CriticalSection openCritical() {
		this.openCritical.incrementAndGet();
		AtomicBoolean closed = new AtomicBoolean();
		return () -> {
			if (closed.compareAndSet(false, true)) {
				this.openCritical.decrementAndGet();
				settleIfDrained();
			}
		};
	}

	private void settleIfDrained() {
		if (this.ended.get() && this.openCritical.get() == 0) {
			settle(this.abnormal ? Outcome.DIED : Outcome.COMPLETED);
		}
	}

	/** Records the outcome if none is recorded yet; a late finish never rewrites a timeout. */
	boolean settle(Outcome result) {
		if (!this.outcome.compareAndSet(null, result)) {
			return false;
		}
		long requested = this.stopRequestedAt;
		this.duration = (requested != 0) ? Duration.ofNanos(System.nanoTime() - requested) : Duration.ZERO;
		this.state = ComponentState.of(result);
		// Metrics and listeners first: completing the future can let the report, and the process
		// exit, go ahead.
		this.manager.componentEnded(this);
		this.settled.complete(result);
		return true;
	}

	CompletableFuture<Outcome> settled() {
		return this.settled;
	}

	Outcome outcome() {
		return this.outcome.get();
	}

	Duration duration() {
		return this.duration;
	}

	boolean endedWithCompletedWork() {
		return this.outcome.get() == Outcome.COMPLETED && this.workCompleted && this.endedDuringNormalOperation;
	}

	boolean isAbnormal() {
		return this.abnormal;
	}

	Thread thread() {
		return this.thread;
	}

	/** Threads running this component's work right now, for ceiling diagnostics. */
	Set<Thread> threads() {
		if (this.executor != null && this.stopRequestedAt != 0) {
			Set<Thread> threads = new LinkedHashSet<>(this.executor.workers());
			Thread stopper = this.thread;
			if (stopper != null) {
				threads.add(stopper);
			}
			return threads;
		}
		Thread current = this.thread;
		return (current != null) ? Set.of(current) : Set.of();
	}

	ComponentReport report() {
		Outcome result = this.outcome.get();
		return new ComponentReport(this.name, this.options.tier(), this.options.phase(), result, this.duration);
	}

	void logCallbackFailure(RuntimeException ex) {
		logger.error("Lifecycle: onShutdown callback of component '{}' threw", this.name, ex);
	}

	// ---- health monitor (single-threaded) ------------------------------------------------------

	/**
	 * One health poll. Returns {@code true} when this poll made the component reach its stall
	 * threshold.
	 */
	boolean poll(long now) {
		ComponentHandle h = this.handle;
		boolean beat = h.heartbeatPending;
		if (beat) {
			h.heartbeatPending = false;
			this.lastHeartbeat = now;
			this.lastHeartbeatPublished = now;
			this.heartbeatSeen = true;
			this.everReported = true;
		}
		boolean unhealthy = h.unhealthyPending;
		if (unhealthy) {
			h.unhealthyPending = false;
		}
		if (!this.everReported) {
			return false;
		}
		boolean stalled = unhealthy || (now - this.lastHeartbeat) > this.deadlineNanos;
		if (!stalled) {
			this.consecutiveStalls = 0;
			if (!h.healthy) {
				logger.info("Lifecycle: component '{}' recovered", this.name);
			}
			h.healthy = true;
			this.healthStatus = HealthStatus.HEALTHY;
			return false;
		}
		this.consecutiveStalls++;
		if (this.consecutiveStalls < this.options.stallThreshold()) {
			return false;
		}
		boolean flipped = h.healthy;
		h.healthy = false;
		this.healthStatus = HealthStatus.STALLED;
		if (flipped) {
			logger.warn("Lifecycle: component '{}' stalled ({} consecutive stalled checks, liveness deadline {})",
					this.name, this.consecutiveStalls, this.options.livenessDeadline().get());
		}
		return flipped;
	}

	// ---- ComponentView -------------------------------------------------------------------------

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
		return this.state;
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
		if (!this.heartbeatSeen) {
			return Optional.empty();
		}
		long last = this.lastHeartbeatPublished;
		return Optional.of(Duration.ofNanos(Math.max(0, this.manager.ticker().nanoTime() - last)));
	}

	@Override
	public int openCriticalSections() {
		return this.openCritical.get();
	}

	@Override
	public Map<String, Object> details() {
		if (this.executor == null) {
			return Map.of();
		}
		return Map.of("queueDepth", this.executor.queueDepth(), "activeCount", this.executor.activeCount());
	}

	@Override
	public String toString() {
		return "Component[" + this.name + ", " + this.options.tier() + ", phase " + this.options.phase() + "]";
	}

}
