package dev.lifecycle.core;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Lifecycle engine: registers components, starts them in phase order, watches their health,
 * and runs the one coordinated shutdown sequence when the first trigger arrives.
 *
 * <p>Guarantees: the first trigger wins and the sequence runs exactly once; readiness turns false
 * and listeners hear of the shutdown before any component is told to stop; every standard and
 * observability component ends with exactly one {@link Outcome}; the sequence is bounded by the
 * global shutdown timeout, after which the report says {@link ExitCodes#CEILING} and the log names
 * every component still running with its thread's stack.
 *
 * <p>Register components, handlers and final actions, then call {@link #start()}; registration
 * after start is rejected. Typical use:
 * <pre>{@code
 * LifecycleManager manager = LifecycleManager.builder("orders").build();
 * manager.registerActive("consumer", ComponentOptions.defaults(), handle -> {
 *     while (!handle.isShuttingDown()) { poll(); handle.reportHealthy(); }
 * });
 * manager.start();
 * System.exit(manager.awaitTermination().exitCode());
 * }</pre>
 */
public final class LifecycleManager {

	private static final Logger logger = LoggerFactory.getLogger(LifecycleManager.class);

	private static final String IDLE_STOP_WORKER = "lifecycle-stop-idle";

	private final String serviceName;

	private final Duration globalShutdownTimeout;

	private final Duration healthPollInterval;

	private final Duration drainDelay;

	private final Path preStopFile;

	private final LifecycleMetrics metrics;

	private final Ticker ticker;

	private final boolean automaticHealthPolling;

	private final RunMarker runMarker;

	private final List<LifecycleListener> listeners;

	private final Map<String, Component> components = new LinkedHashMap<>();

	private final List<ShutdownSequence.NamedHandler> handlers = new ArrayList<>();

	private final List<ShutdownSequence.NamedAction> finalActions = new ArrayList<>();

	private final List<ShutdownSequence.NamedHandler> closingSteps = new ArrayList<>();

	private final BiFunction<String, ComponentOptions, ComponentOptions> optionsResolver;

	private final AtomicReference<ShutdownTrigger> trigger = new AtomicReference<>();

	private final CompletableFuture<ShutdownReport> termination = new CompletableFuture<>();

	private final ScheduledThreadPoolExecutor scheduler;

	/**
	 * Runs passive stops and executor drains. Pooled because a phase of many components would
	 * otherwise start as many threads, and on a busy two-core machine a thread start was measured at up
	 * to a millisecond: 1,000 components in 10 phases spent half a second just starting threads. Later
	 * phases reuse the threads of earlier ones; idle threads end after a few seconds.
	 */
	private final ThreadPoolExecutor stopWorkers;

	private final Object healthLock = new Object();

	private volatile boolean started;

	private volatile boolean autoCompletion;

	private volatile List<Component> componentList = List.of();

	private Component[] monitored = new Component[0];

	private PreStopWatcher preStopWatcher;

	private LifecycleManager(Builder builder) {
		this.serviceName = builder.serviceName;
		this.globalShutdownTimeout = builder.globalShutdownTimeout;
		this.healthPollInterval = builder.healthPollInterval;
		this.drainDelay = builder.drainDelay;
		this.preStopFile = builder.preStopFile;
		this.metrics = builder.metrics;
		this.ticker = builder.ticker;
		this.automaticHealthPolling = builder.automaticHealthPolling;
		this.runMarker = (builder.runMarker != null) ? new RunMarker(builder.runMarker) : null;
		this.listeners = new CopyOnWriteArrayList<>(builder.listeners);
		this.optionsResolver = builder.optionsResolver;
		this.scheduler = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "lifecycle-monitor");
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.setRemoveOnCancelPolicy(true);
		this.stopWorkers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 5, TimeUnit.SECONDS, new SynchronousQueue<>(),
				(task) -> newThread(IDLE_STOP_WORKER, task));
	}

	/**
	 * Starts building a manager.
	 * @param serviceName the service's name, the {@code service_name} label on every metric
	 * @return a builder with the documented defaults
	 */
	public static Builder builder(String serviceName) {
		return new Builder(serviceName);
	}

	// ---- registration --------------------------------------------------------------------------

	/**
	 * Registers a component whose code runs on threads of its own. Its process ends when the
	 * handle's {@link ComponentHandle#processScope() process scope} closes.
	 * @param name unique name, the {@code component} label
	 * @param options its options
	 * @return its handle
	 * @throws IllegalArgumentException for a duplicate name or an invalid option combination
	 */
	public ComponentHandle register(String name, ComponentOptions options) {
		return add(name, options, null, null, null).handle();
	}

	/**
	 * Registers a component that runs on a thread the engine starts at {@link #start()}; returning
	 * or throwing ends it.
	 * @param name unique name
	 * @param options its options
	 * @param component the loop to run
	 * @return its handle
	 * @throws IllegalArgumentException for a duplicate name or an invalid option combination
	 */
	public ComponentHandle registerActive(String name, ComponentOptions options, ActiveComponent component) {
		Objects.requireNonNull(component, "component");
		return add(name, options, component, null, null).handle();
	}

	/**
	 * Registers a component with start and stop callbacks; the return of its stop callback ends it.
	 * @param name unique name
	 * @param options its options
	 * @param component the callbacks
	 * @return its handle
	 * @throws IllegalArgumentException for a duplicate name or an invalid option combination
	 */
	public ComponentHandle registerPassive(String name, ComponentOptions options, PassiveComponent component) {
		Objects.requireNonNull(component, "component");
		return add(name, options, null, component, null).handle();
	}

	/**
	 * Registers an executor as a critical component. The returned executor forwards to the delegate
	 * until the component's phase is told to stop; then it stops taking new tasks, waits for every
	 * accepted task within the budget, and runs later submissions on the submitting thread.
	 * @param name unique name
	 * @param options its options
	 * @param delegate the executor that runs the tasks; the engine shuts it down
	 * @return the executor to submit critical work to
	 * @throws IllegalArgumentException for a duplicate name or an invalid option combination
	 */
	public ExecutorService registerExecutor(String name, ComponentOptions options, ExecutorService delegate) {
		Objects.requireNonNull(delegate, "delegate");
		CriticalExecutor executor = new CriticalExecutor(delegate);
		add(name, options, null, null, executor);
		return executor;
	}

	private Component add(String name, ComponentOptions options, ActiveComponent active, PassiveComponent passive,
			CriticalExecutor executor) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("Component name must not be blank");
		}
		Objects.requireNonNull(options, "options");
		ComponentOptions declared = options;
		options = Objects.requireNonNull(this.optionsResolver.apply(name, declared),
				() -> "options resolved for component '" + name + "'");
		options.validate(name);
		synchronized (this.components) {
			checkNotStarted("register component '" + name + "'");
			if (this.components.containsKey(name)) {
				throw new IllegalArgumentException("Component '" + name + "': name is already registered; "
						+ "component names must be unique");
			}
			Component component = new Component(name, options, this.components.size(), this, active, passive,
					executor);
			this.components.put(name, component);
			this.componentList = List.copyOf(this.components.values());
			if (options.finite()) {
				this.autoCompletion = true;
			}
			this.metrics.componentRegistered(component);
			return component;
		}
	}

	/**
	 * Adds a shutdown handler, run after the drain delay and before any component is told to stop,
	 * in the order added.
	 * @param name a name for the logs
	 * @param timeout how long the handler may run before the sequence goes on without it
	 * @param handler the work
	 */
	public void addShutdownHandler(String name, Duration timeout, ShutdownHandler handler) {
		Objects.requireNonNull(handler, "handler");
		requirePositive("shutdown handler '" + name + "' timeout", timeout);
		synchronized (this.components) {
			checkNotStarted("add shutdown handler '" + name + "'");
			this.handlers.add(new ShutdownSequence.NamedHandler(name, timeout, handler));
		}
	}

	/**
	 * Adds a final action, run after the standard drain and before the observability drain; final
	 * actions run in reverse order of adding.
	 * @param name a name for the logs
	 * @param action the work
	 */
	public void addFinalAction(String name, Runnable action) {
		Objects.requireNonNull(action, "action");
		synchronized (this.components) {
			checkNotStarted("add final action '" + name + "'");
			this.finalActions.add(new ShutdownSequence.NamedAction(name, action));
		}
	}

	/**
	 * Adds a closing step, run after the observability drain and before the report, in the order
	 * added (the web server's graceful shutdown and stop, say). Each runs on its own thread bounded
	 * by its timeout and by the global ceiling; one that throws or times out is logged, the sequence
	 * goes on, and the report is not clean (exit code {@link ExitCodes#FAILURE}).
	 * @param name a name for the logs and the ceiling's diagnostics
	 * @param timeout how long the step may run before the sequence goes on without it
	 * @param step the work
	 */
	public void addClosingStep(String name, Duration timeout, ShutdownHandler step) {
		Objects.requireNonNull(step, "step");
		requirePositive("closing step '" + name + "' timeout", timeout);
		synchronized (this.components) {
			checkNotStarted("add closing step '" + name + "'");
			this.closingSteps.add(new ShutdownSequence.NamedHandler(name, timeout, step));
		}
	}

	/** Adds a listener; listeners added after a callback fired do not receive it. */
	public void addListener(LifecycleListener listener) {
		this.listeners.add(Objects.requireNonNull(listener, "listener"));
	}

	private void checkNotStarted(String what) {
		if (this.started) {
			throw new IllegalStateException("Cannot " + what + ": the lifecycle manager has already started");
		}
	}

	// ---- start ---------------------------------------------------------------------------------

	/**
	 * Starts every component in ascending phase order (registration order within a phase), the
	 * health monitor if any component has a liveness deadline, and the pre-stop watcher if a file
	 * is configured.
	 * @throws IllegalStateException if already started, or if a passive start callback threw (the
	 * manager is then shutting down with reason {@link ShutdownReason#FAILURE})
	 */
	public void start() {
		List<Component> ordered;
		synchronized (this.components) {
			checkNotStarted("start");
			this.started = true;
			ordered = new ArrayList<>(this.components.values());
		}
		if (this.runMarker != null && this.runMarker.acquire()) {
			this.metrics.uncleanPreviousRun();
		}
		ordered.sort(Comparator.comparingInt(Component::phase).thenComparingInt(Component::registrationIndex));
		this.monitored = ordered.stream()
			.filter((c) -> c.options().livenessDeadline().isPresent())
			.toArray(Component[]::new);
		if (this.monitored.length > 0 && this.automaticHealthPolling) {
			long interval = this.healthPollInterval.toNanos();
			this.scheduler.scheduleAtFixedRate(this::pollHealthSafely, interval, interval, TimeUnit.NANOSECONDS);
		}
		if (this.preStopFile != null) {
			this.preStopWatcher = new PreStopWatcher(this.preStopFile,
					() -> trigger(ShutdownReason.PRESTOP, "prestop", this.preStopFile.toString()));
			this.preStopWatcher.removeStaleFile();
			newThread("lifecycle-prestop", this.preStopWatcher::run).start();
		}
		for (Component component : ordered) {
			if (isShutdownInitiated()) {
				break;
			}
			try {
				component.start();
			}
			catch (Exception ex) {
				component.startFailed(ex);
				throw new IllegalStateException("Lifecycle: component '" + component.name() + "' failed to start", ex);
			}
		}
		logger.info("Lifecycle: started {} component(s) for service '{}'", ordered.size(), this.serviceName);
	}

	// ---- health --------------------------------------------------------------------------------

	private void pollHealthSafely() {
		try {
			pollHealth();
		}
		catch (RuntimeException ex) {
			logger.error("Lifecycle: health poll failed", ex);
		}
	}

	/** One health-monitor cycle over every monitored component. */
	void pollHealth() {
		synchronized (this.healthLock) {
			long now = this.ticker.nanoTime();
			for (Component component : this.monitored) {
				if (component.poll(now) && component.tier() == Tier.STANDARD && !isShutdownInitiated()) {
					trigger(ShutdownReason.STALLED, component.name(), "no heartbeat within "
							+ component.options().livenessDeadline().get() + " for "
							+ component.options().stallThreshold() + " consecutive check(s)");
				}
			}
		}
	}

	// ---- triggers ------------------------------------------------------------------------------

	/**
	 * Starts the shutdown sequence unless one has already started.
	 * @param reason why
	 * @param source the component or source responsible, e.g. {@code "signal"}
	 * @return {@code true} if this call started the sequence, {@code false} if another trigger won
	 */
	public boolean triggerShutdown(ShutdownReason reason, String source) {
		return trigger(reason, source, "");
	}

	boolean trigger(ShutdownReason reason, String component, String detail) {
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
		this.metrics.shutdownInitiated(candidate);
		for (LifecycleListener listener : this.listeners) {
			try {
				listener.onShutdownInitiated(candidate);
			}
			catch (RuntimeException ex) {
				logger.error("Lifecycle: listener failed on shutdown initiated", ex);
			}
		}
		ShutdownSequence sequence = new ShutdownSequence(this, candidate, initiatedAt, this.componentList,
				List.copyOf(this.handlers), List.copyOf(this.finalActions), List.copyOf(this.closingSteps));
		Thread thread = new Thread(sequence::run, "lifecycle-shutdown");
		sequence.start(thread);
		return true;
	}

	void requestShutdown(String component, Duration delay) {
		Objects.requireNonNull(delay, "delay");
		if (delay.isNegative() || delay.isZero()) {
			trigger(ShutdownReason.REQUESTED, component, "");
			return;
		}
		logger.info("Lifecycle: component '{}' requested a shutdown in {}", component, delay);
		this.scheduler.schedule(() -> trigger(ShutdownReason.REQUESTED, component, "after " + delay),
				delay.toNanos(), TimeUnit.NANOSECONDS);
	}

	/**
	 * Records that a second signal forced the process to exit before the sequence finished. The
	 * caller exits with the returned code at once; the shutdown-completed counter is not
	 * incremented and the run marker stays, so the next start sees an unclean end.
	 * @return {@link ExitCodes#FORCED}
	 */
	public int forceExit() {
		logger.error("Lifecycle: second shutdown signal; forcing exit with code {} before the sequence finished",
				ExitCodes.FORCED);
		return ExitCodes.FORCED;
	}

	// ---- callbacks from components and the sequence -------------------------------------------

	void componentEnded(Component component) {
		ComponentReport report = component.report();
		if (component.tier() != Tier.ADVISORY) {
			this.metrics.componentEnded(component.name(), report.outcome(), report.duration());
		}
		for (LifecycleListener listener : this.listeners) {
			try {
				listener.onComponentEnded(report);
			}
			catch (RuntimeException ex) {
				logger.error("Lifecycle: listener failed on component ended", ex);
			}
		}
		if (this.autoCompletion && component.tier() == Tier.STANDARD && component.endedWithCompletedWork()
				&& !isShutdownInitiated() && allStandardWorkCompleted()) {
			trigger(ShutdownReason.COMPLETED, component.name(), "all finite work completed");
		}
	}

	private boolean allStandardWorkCompleted() {
		for (Component component : this.componentList) {
			if (component.tier() == Tier.STANDARD && !component.endedWithCompletedWork()) {
				return false;
			}
		}
		return true;
	}

	void finish(ShutdownReport report, boolean countCompletion) {
		if (countCompletion) {
			this.metrics.shutdownCompleted(report.clean());
			// Only a finished sequence clears the marker: after a ceiling exit the next start must
			// still see an unclean end, because this process's counters die with it.
			if (this.runMarker != null) {
				this.runMarker.release();
			}
		}
		if (this.preStopWatcher != null) {
			this.preStopWatcher.close();
		}
		for (LifecycleListener listener : this.listeners) {
			try {
				listener.onShutdownCompleted(report);
			}
			catch (RuntimeException ex) {
				logger.error("Lifecycle: listener failed on shutdown completed", ex);
			}
		}
		this.termination.complete(report);
		// Not shutdownNow: a stop that overran its budget keeps its thread until it returns.
		this.stopWorkers.shutdown();
		// Last: when the ceiling fired this runs on the scheduler's own thread, and shutdownNow
		// interrupts it; nothing may run on this thread afterwards.
		this.scheduler.shutdownNow();
	}

	Thread newThread(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		return thread;
	}

	/**
	 * Runs one component's stop work on a pooled daemon thread that carries the given name while
	 * it works, so thread dumps and the ceiling's report still say whose work it is.
	 */
	void runStopWork(String threadName, Runnable work) {
		this.stopWorkers.execute(() -> {
			Thread current = Thread.currentThread();
			current.setName(threadName);
			try {
				work.run();
			}
			finally {
				current.setName(IDLE_STOP_WORKER);
			}
		});
	}

	ScheduledThreadPoolExecutor scheduler() {
		return this.scheduler;
	}

	Ticker ticker() {
		return this.ticker;
	}

	Duration drainDelay() {
		return this.drainDelay;
	}

	// ---- queries -------------------------------------------------------------------------------

	/** The service name, the {@code service_name} label. */
	public String serviceName() {
		return this.serviceName;
	}

	/** The ceiling that bounds the sequence from the drain delay to the observability drain. */
	public Duration globalShutdownTimeout() {
		return this.globalShutdownTimeout;
	}

	/** {@code true} from the first instant of a shutdown. */
	public boolean isShutdownInitiated() {
		return this.trigger.get() != null;
	}

	/** Readiness: {@code true} until a shutdown starts, {@code false} from its first instant. */
	public boolean isReady() {
		return this.trigger.get() == null;
	}

	/** The trigger that started the shutdown, once one has. */
	public Optional<ShutdownTrigger> trigger() {
		return Optional.ofNullable(this.trigger.get());
	}

	/** The handle of a registered component. */
	public Optional<ComponentHandle> handle(String name) {
		synchronized (this.components) {
			return Optional.ofNullable(this.components.get(name)).map(Component::handle);
		}
	}

	/** Live views of every registered component, in registration order. */
	public List<ComponentView> components() {
		return List.copyOf(this.componentList);
	}

	/** The report, once the sequence has ended. */
	public Optional<ShutdownReport> report() {
		return Optional.ofNullable(this.termination.getNow(null));
	}

	/** A stage completed with the report when the sequence ends; callers cannot complete it. */
	public CompletionStage<ShutdownReport> termination() {
		return this.termination.minimalCompletionStage();
	}

	/**
	 * Blocks until the sequence ends.
	 * @return the report
	 * @throws InterruptedException if interrupted while waiting
	 */
	public ShutdownReport awaitTermination() throws InterruptedException {
		try {
			return this.termination.get();
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex.getCause());
		}
	}

	/**
	 * Blocks until the sequence ends or the timeout elapses.
	 * @param timeout the longest wait
	 * @return the report, or empty on timeout
	 * @throws InterruptedException if interrupted while waiting
	 */
	public Optional<ShutdownReport> awaitTermination(Duration timeout) throws InterruptedException {
		try {
			return Optional.of(this.termination.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
		}
		catch (TimeoutException ex) {
			return Optional.empty();
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex.getCause());
		}
	}

	private static void requirePositive(String what, Duration value) {
		Objects.requireNonNull(value, what);
		if (value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException(what + " must be positive but was " + value);
		}
	}

	/**
	 * Builds a {@link LifecycleManager}. Defaults: global shutdown timeout 60 s, health poll
	 * interval 5 s, drain delay 0, no pre-stop file, no run marker, no-op metrics, system ticker.
	 */
	public static final class Builder {

		private final String serviceName;

		private Duration globalShutdownTimeout = Duration.ofSeconds(60);

		private Duration healthPollInterval = Duration.ofSeconds(5);

		private Duration drainDelay = Duration.ZERO;

		private Path preStopFile;

		private Path runMarker;

		private LifecycleMetrics metrics = LifecycleMetrics.noop();

		private Ticker ticker = Ticker.system();

		private boolean automaticHealthPolling = true;

		private BiFunction<String, ComponentOptions, ComponentOptions> optionsResolver = (name, options) -> options;

		private final List<LifecycleListener> listeners = new ArrayList<>();

		private Builder(String serviceName) {
			this.serviceName = serviceName;
		}

		/** Hard ceiling on the sequence from the drain delay to the observability drain. */
		public Builder globalShutdownTimeout(Duration timeout) {
			this.globalShutdownTimeout = timeout;
			return this;
		}

		/** How often the health monitor polls components that have a liveness deadline. */
		public Builder healthPollInterval(Duration interval) {
			this.healthPollInterval = interval;
			return this;
		}

		/** How long to keep serving after readiness turns DOWN, before anything stops. */
		public Builder drainDelay(Duration delay) {
			this.drainDelay = delay;
			return this;
		}

		/** An absolute path whose appearance triggers a shutdown; {@code null} disables it. */
		public Builder preStopFile(Path file) {
			this.preStopFile = file;
			return this;
		}

		/**
		 * A file kept while the process runs, so the next start can detect an unclean end;
		 * {@code null} disables it.
		 */
		public Builder runMarker(Path file) {
			this.runMarker = file;
			return this;
		}

		/** Where metrics go. */
		public Builder metrics(LifecycleMetrics metrics) {
			this.metrics = Objects.requireNonNull(metrics, "metrics");
			return this;
		}

		/** Adds a listener. */
		public Builder listener(LifecycleListener listener) {
			this.listeners.add(Objects.requireNonNull(listener, "listener"));
			return this;
		}

		/**
		 * Resolves the effective options of every component at registration, whatever registers it
		 * (code, an annotation, an integration), before they are validated: the place where
		 * configuration overrides what the code declared.
		 * @param resolver given the component's name and declared options, returns the options to use
		 */
		public Builder componentOptions(BiFunction<String, ComponentOptions, ComponentOptions> resolver) {
			this.optionsResolver = Objects.requireNonNull(resolver, "resolver");
			return this;
		}

		/** The health monitor's clock; tests supply a controllable one. */
		public Builder ticker(Ticker ticker) {
			this.ticker = Objects.requireNonNull(ticker, "ticker");
			return this;
		}

		/** Tests drive the monitor themselves through {@code pollHealth()}. */
		Builder manualHealthPolling() {
			this.automaticHealthPolling = false;
			return this;
		}

		/**
		 * Validates the options and builds the manager.
		 * @return a manager, not yet started
		 * @throws IllegalArgumentException naming the first invalid option
		 */
		public LifecycleManager build() {
			if (this.serviceName == null || this.serviceName.isBlank()) {
				throw new IllegalArgumentException("serviceName must not be blank");
			}
			requirePositive("globalShutdownTimeout", this.globalShutdownTimeout);
			requirePositive("healthPollInterval", this.healthPollInterval);
			Objects.requireNonNull(this.drainDelay, "drainDelay");
			if (this.drainDelay.isNegative()) {
				throw new IllegalArgumentException("drainDelay must not be negative but was " + this.drainDelay);
			}
			if (this.drainDelay.compareTo(this.globalShutdownTimeout) >= 0) {
				throw new IllegalArgumentException("drainDelay (" + this.drainDelay
						+ ") must be shorter than globalShutdownTimeout (" + this.globalShutdownTimeout
						+ "), which bounds it");
			}
			if (this.preStopFile != null && !this.preStopFile.isAbsolute()) {
				throw new IllegalArgumentException(
						"preStopFile must be an absolute path but was '" + this.preStopFile + "'");
			}
			return new LifecycleManager(this);
		}

	}

}
