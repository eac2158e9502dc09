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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Lifecycle engine's front door: registers components, starts them in phase order, watches
 * their health, and runs the one coordinated shutdown sequence when the first trigger arrives.
 * Everything it does is told to {@link LifecycleListener}s; the parts behind it (components, the
 * health monitor, the triggers, the sequence) never call back into it.
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

	private final String serviceName;

	private final Duration globalShutdownTimeout;

	private final Duration healthPollInterval;

	private final Duration drainDelay;

	private final @Nullable Duration drainQuietPeriod;

	private final Duration drainMinimum;

	/** Requests seen; only its movement matters, to the adaptive drain. */
	private final LongAdder activity = new LongAdder();

	/** Requests that failed after the trigger, for the report. */
	private final LongAdder failedRequests = new LongAdder();

	private final @Nullable Path preStopFile;

	private final @Nullable Path runMarkerFile;

	private final boolean runMarkerAtStart;

	private final int shutdownReports;

	private final @Nullable String applicationVersion;

	private volatile @Nullable RunMarker runMarker;

	/** What is known of the previous process, read when the run marker was written. */
	private volatile @Nullable PreviousRun previousRun;

	private final BiFunction<String, ComponentOptions, ComponentOptions> optionsResolver;

	private final EngineThreads threads;

	private final CoarseClock clock;

	private final Listeners listeners;

	private final ComponentOutcomes outcomes;

	private final Triggers triggers;

	private final CompletableFuture<ShutdownReport> termination = new CompletableFuture<>();

	/** Guards registration and start; never held while anything blocks. */
	private final ReentrantLock registration = new ReentrantLock();

	private final Map<String, Component> components = new LinkedHashMap<>();

	private final List<ShutdownSequence.NamedHandler> handlers = new ArrayList<>();

	private final List<ShutdownSequence.NamedAction> finalActions = new ArrayList<>();

	private final List<ShutdownSequence.NamedHandler> closingSteps = new ArrayList<>();

	private final List<ShutdownSequence.NamedHandler> lastSteps = new ArrayList<>();

	private volatile List<Component> componentList = List.of();

	private volatile boolean started;

	private volatile @Nullable HealthMonitor healthMonitor;

	private volatile @Nullable PreStopWatcher preStopWatcher;

	private final boolean automaticHealthPolling;

	private LifecycleManager(Builder builder) {
		this.serviceName = builder.serviceName;
		this.globalShutdownTimeout = builder.globalShutdownTimeout;
		this.healthPollInterval = builder.healthPollInterval;
		this.drainDelay = builder.drainDelay;
		this.drainQuietPeriod = builder.drainQuietPeriod;
		this.drainMinimum = builder.drainMinimum;
		this.preStopFile = builder.preStopFile;
		this.runMarkerFile = builder.runMarker;
		this.runMarkerAtStart = builder.runMarkerAtStart;
		this.shutdownReports = builder.shutdownReports;
		this.applicationVersion = builder.applicationVersion;
		this.optionsResolver = builder.optionsResolver;
		this.automaticHealthPolling = builder.automaticHealthPolling;
		this.threads = new EngineThreads(builder.threadFactory);
		this.clock = new CoarseClock(builder.ticker);
		this.listeners = new Listeners(builder.listeners);
		if (!this.runMarkerAtStart) {
			// Written as early as the manager exists, so a crash during the rest of the start-up is
			// seen as an unclean end too; reported at start, when every listener is attached.
			openRecords();
		}
		this.triggers = new Triggers(this.listeners, this::startSequence);
		this.outcomes = new ComponentOutcomes(this.listeners, () -> this.componentList, this.threads, this.triggers);
	}

	/** Writes the run marker, reads what the previous process left and starts recording reports. */
	private void openRecords() {
		Path file = this.runMarkerFile;
		if (file == null) {
			return;
		}
		RunMarker marker = new RunMarker(file);
		String left = marker.acquire().orElse(null);
		this.previousRun = ShutdownRecorder.previous(marker.file(), left);
		if (this.shutdownReports > 0) {
			this.listeners.add(new ShutdownRecorder(marker.file(), this.serviceName, marker.content(),
					this.shutdownReports, this.applicationVersion));
		}
		this.runMarker = marker;
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
		return add(name, options, Component.Work.NONE).handle();
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
		return add(name, options, Component.Work.active(component, this.threads)).handle();
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
		return add(name, options, Component.Work.passive(component)).handle();
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
		add(name, options, Component.Work.executor(executor));
		return executor;
	}

	private Component add(String name, ComponentOptions declared, Component.Work work) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("Component name must not be blank");
		}
		Objects.requireNonNull(declared, "options");
		ComponentOptions options = Objects.requireNonNull(this.optionsResolver.apply(name, declared),
				() -> "options resolved for component '" + name + "'");
		options.validate(name);
		Component component;
		this.registration.lock();
		try {
			checkNotStarted("register component '" + name + "'");
			if (this.components.containsKey(name)) {
				throw new IllegalArgumentException("Component '" + name + "': name is already registered; "
						+ "component names must be unique");
			}
			component = new Component(name, options, this.components.size(), work, this.outcomes, this.threads,
					this.clock);
			this.components.put(name, component);
			this.componentList = List.copyOf(this.components.values());
			this.listeners.componentRegistered(component);
		}
		finally {
			this.registration.unlock();
		}
		return component;
	}

	/**
	 * Adds a shutdown handler, run after the drain delay and before any component is told to stop,
	 * in the order added. One that throws or times out makes the report not clean.
	 * @param name a name for the logs
	 * @param timeout how long the handler may run before the sequence goes on without it
	 * @param handler the work
	 */
	public void addShutdownHandler(String name, Duration timeout, ShutdownHandler handler) {
		Objects.requireNonNull(handler, "handler");
		OptionRules.positive(null, "shutdown handler '" + name + "' timeout", timeout);
		addStep("add shutdown handler '" + name + "'",
				() -> this.handlers.add(new ShutdownSequence.NamedHandler(name, timeout, handler)));
	}

	/**
	 * Adds a final action, run after the standard drain and before the observability drain; final
	 * actions run in reverse order of adding.
	 * @param name a name for the logs
	 * @param action the work
	 */
	public void addFinalAction(String name, Runnable action) {
		Objects.requireNonNull(action, "action");
		addStep("add final action '" + name + "'",
				() -> this.finalActions.add(new ShutdownSequence.NamedAction(name, action)));
	}

	/**
	 * Adds a closing step, run after the observability drain and before the infrastructure drain, in
	 * the order added (the web server's graceful shutdown and stop, say). Each runs on its own thread bounded
	 * by its timeout and by the global ceiling; one that throws or times out is logged, the sequence
	 * goes on, and the report is not clean (exit code {@link ExitCodes#FAILURE}).
	 * @param name a name for the logs and the ceiling's diagnostics
	 * @param timeout how long the step may run before the sequence goes on without it
	 * @param step the work
	 */
	public void addClosingStep(String name, Duration timeout, ShutdownHandler step) {
		Objects.requireNonNull(step, "step");
		OptionRules.positive(null, "closing step '" + name + "' timeout", timeout);
		addStep("add closing step '" + name + "'",
				() -> this.closingSteps.add(new ShutdownSequence.NamedHandler(name, timeout, step)));
	}

	/**
	 * Adds a last step, run after the infrastructure drain and before the report, in the order added:
	 * what observes the whole shutdown stops here (a separate management server, whose probes and
	 * metrics answer until then). Bounded, logged and judged as a closing step is.
	 * @param name a name for the logs and the ceiling's diagnostics
	 * @param timeout how long the step may run before the sequence goes on without it
	 * @param step the work
	 */
	public void addLastStep(String name, Duration timeout, ShutdownHandler step) {
		Objects.requireNonNull(step, "step");
		OptionRules.positive(null, "last step '" + name + "' timeout", timeout);
		addStep("add last step '" + name + "'",
				() -> this.lastSteps.add(new ShutdownSequence.NamedHandler(name, timeout, step)));
	}

	private void addStep(String what, Runnable add) {
		this.registration.lock();
		try {
			checkNotStarted(what);
			add.run();
		}
		finally {
			this.registration.unlock();
		}
	}

	/**
	 * Adds a listener. It first hears of every component registered so far, as if it had been
	 * there, so a metrics binding can be added at any time before start; of other events it hears
	 * only those that fire after it was added.
	 */
	public void addListener(LifecycleListener listener) {
		Objects.requireNonNull(listener, "listener");
		this.registration.lock();
		try {
			this.listeners.addLate(listener, this.componentList);
		}
		finally {
			this.registration.unlock();
		}
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
	 * If a shutdown was triggered before this call, nothing starts and the call returns normally:
	 * the shutdown's report stands.
	 * @throws IllegalStateException if already started, or if a passive start callback threw (the
	 * manager is then shutting down with reason {@link ShutdownReason#FAILURE})
	 */
	public void start() {
		List<Component> ordered;
		this.registration.lock();
		try {
			checkNotStarted("start");
			this.started = true;
			ordered = new ArrayList<>(this.components.values());
		}
		finally {
			this.registration.unlock();
		}
		if (this.runMarkerAtStart && !this.triggers.isInitiated()) {
			openRecords();
		}
		PreviousRun previous = this.previousRun;
		if (previous != null) {
			if (previous.unclean()) {
				logger.warn("Lifecycle: {}", previous.summary());
			}
			else {
				logger.info("Lifecycle: {}", previous.summary());
			}
			this.listeners.previousRun(previous);
		}
		if (this.triggers.isInitiated()) {
			// A signal arrived between the application's first beans and this start, and the
			// sequence has already settled every component: nothing may start, and the engine's
			// threads may already be gone.
			logger.info("Lifecycle: the shutdown began before the start; no component starts");
			return;
		}
		ordered.sort(Comparator.comparingInt(Component::phase).thenComparingInt(Component::registrationIndex));
		HealthMonitor monitor = new HealthMonitor(ordered, this.clock);
		this.healthMonitor = monitor;
		if (this.automaticHealthPolling) {
			monitor.start(this.threads, this.healthPollInterval);
		}
		Path file = this.preStopFile;
		if (file != null) {
			PreStopWatcher watcher = new PreStopWatcher(file,
					() -> this.triggers.fire(ShutdownReason.PRESTOP, "prestop", file.toString()));
			this.preStopWatcher = watcher;
			watcher.removeStaleFile();
			this.threads.newThread("lifecycle-prestop", watcher::run).start();
		}
		for (Component component : ordered) {
			if (this.triggers.isInitiated()) {
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

	/** One health-monitor cycle, for tests and benchmarks that drive the monitor themselves. */
	void pollHealth() {
		HealthMonitor monitor = this.healthMonitor;
		if (monitor != null) {
			monitor.poll();
		}
	}

	// ---- triggers ------------------------------------------------------------------------------

	/**
	 * Starts the shutdown sequence unless one has already started. Only the reasons an outside
	 * caller can stand for are accepted: {@link ShutdownReason#SIGNAL}, {@link ShutdownReason#PRESTOP},
	 * {@link ShutdownReason#REQUESTED}, {@link ShutdownReason#FAILURE} and
	 * {@link ShutdownReason#START_FAILED}; a stall, a death and completed work are the engine's own
	 * verdicts.
	 * @param reason why
	 * @param source the component or source responsible, e.g. {@code "signal"}
	 * @return {@code true} if this call started the sequence, {@code false} if another trigger won
	 * @throws IllegalArgumentException for {@code STALLED}, {@code DIED} or {@code COMPLETED}
	 */
	public boolean triggerShutdown(ShutdownReason reason, String source) {
		return triggerShutdown(reason, source, "");
	}

	/**
	 * Starts the shutdown sequence unless one has already started, with a detail for the logs,
	 * the report and the endpoint, such as the cause of a failed start. Accepts the same reasons
	 * as {@link #triggerShutdown(ShutdownReason, String)}.
	 * @param reason why
	 * @param source the component, bean or source responsible
	 * @param detail what happened, empty when there is nothing to add
	 * @return {@code true} if this call started the sequence, {@code false} if another trigger won
	 * @throws IllegalArgumentException for {@code STALLED}, {@code DIED} or {@code COMPLETED}
	 */
	public boolean triggerShutdown(ShutdownReason reason, String source, String detail) {
		Objects.requireNonNull(reason, "reason");
		Objects.requireNonNull(source, "source");
		Objects.requireNonNull(detail, "detail");
		if (reason == ShutdownReason.STALLED || reason == ShutdownReason.DIED || reason == ShutdownReason.COMPLETED) {
			throw new IllegalArgumentException("Shutdown reason " + reason + " is the engine's own verdict and "
					+ "cannot be triggered from outside; use SIGNAL, PRESTOP, REQUESTED, FAILURE or START_FAILED");
		}
		return this.triggers.fire(reason, source, detail);
	}

	private void startSequence(ShutdownTrigger trigger, long initiatedAt) {
		ShutdownSequence.Steps steps;
		this.registration.lock();
		try {
			steps = new ShutdownSequence.Steps(this.componentList, List.copyOf(this.handlers),
					List.copyOf(this.finalActions), List.copyOf(this.closingSteps), List.copyOf(this.lastSteps));
		}
		finally {
			this.registration.unlock();
		}
		ShutdownSequence.Drain drain = new ShutdownSequence.Drain(this.drainDelay, this.drainQuietPeriod,
				this.drainMinimum, this.activity::sum);
		new ShutdownSequence(steps, this.globalShutdownTimeout, drain, this.threads, this.listeners, trigger,
				initiatedAt, this.failedRequests::sum, this::finish)
			.start();
	}

	/**
	 * Records that a request (or other traffic) arrived. Cheap enough for every request: an
	 * uncontended counter increment, no clock read. Only the adaptive drain uses it, to end the
	 * drain delay once traffic has gone quiet.
	 */
	public void recordActivity() {
		this.activity.increment();
	}

	/**
	 * Records that a request failed: answered with a server error (5xx), or failed by the server.
	 * Only failures after the trigger are counted, in the report's
	 * {@link ShutdownReport#failedRequests()} and its summary line: a failure before the shutdown is
	 * not the shutdown's. Cheap enough for every request.
	 */
	public void recordFailedRequest() {
		if (this.triggers.isInitiated()) {
			this.failedRequests.increment();
		}
	}

	/**
	 * Records that a second signal forced the process to exit before the sequence finished: the
	 * listeners hear of it ({@link LifecycleListener#onForcedExit(int)}), so the shutdown report
	 * on disk says {@code forced} with exit code {@link ExitCodes#FORCED} before this returns. The
	 * caller exits with the returned code at once; the shutdown-completed counter is not
	 * incremented and the run marker stays, so the next start sees an unclean end, forced by a
	 * second signal.
	 * @return {@link ExitCodes#FORCED}
	 */
	public int forceExit() {
		logger.error("Lifecycle: second shutdown signal; forcing exit with code {} before the sequence finished",
				ExitCodes.FORCED);
		this.listeners.forcedExit(ExitCodes.FORCED);
		return ExitCodes.FORCED;
	}

	/** The end of the sequence, normal or cut by the ceiling; runs once. */
	private void finish(ShutdownReport report) {
		// Only a finished sequence clears the marker: after a ceiling exit the next start must
		// still see an unclean end, because this process's counters die with it.
		RunMarker marker = this.runMarker;
		if (!report.ceilingFired() && marker != null) {
			marker.release();
		}
		PreStopWatcher watcher = this.preStopWatcher;
		if (watcher != null) {
			watcher.close();
		}
		this.listeners.shutdownCompleted(report);
		this.termination.complete(report);
		// Last: when the ceiling fired this runs on the scheduler's own thread, which this ends.
		this.threads.shutdown();
	}

	// ---- queries -------------------------------------------------------------------------------

	/** The service name, the {@code service_name} label. */
	public String serviceName() {
		return this.serviceName;
	}

	/** The ceiling that bounds the sequence from its trigger to its report. */
	public Duration globalShutdownTimeout() {
		return this.globalShutdownTimeout;
	}

	/** {@code true} from the first instant of a shutdown. */
	public boolean isShutdownInitiated() {
		return this.triggers.isInitiated();
	}

	/** Readiness: {@code true} until a shutdown starts, {@code false} from its first instant. */
	public boolean isReady() {
		return !this.triggers.isInitiated();
	}

	/** The trigger that started the shutdown, once one has. */
	public Optional<ShutdownTrigger> trigger() {
		return Optional.ofNullable(this.triggers.current());
	}

	/** The handle of a registered component. */
	public Optional<ComponentHandle> handle(String name) {
		for (Component component : this.componentList) {
			if (component.name().equals(name)) {
				return Optional.of(component.handle());
			}
		}
		return Optional.empty();
	}

	/** Live views of every registered component, in registration order. */
	public List<ComponentView> components() {
		return List.copyOf(this.componentList);
	}

	/**
	 * What is known of the process that ran before this one, when a run marker is kept; with
	 * {@link Builder#runMarkerAtStart(boolean)}, known only from {@link #start()}.
	 */
	public Optional<PreviousRun> previousRun() {
		return Optional.ofNullable(this.previousRun);
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

	/**
	 * Builds a {@link LifecycleManager}. Defaults: global shutdown timeout 60 s, health poll
	 * interval 5 s, drain delay 0, no pre-stop file, no run marker, platform daemon threads.
	 */
	public static final class Builder {

		private final String serviceName;

		private Duration globalShutdownTimeout = Duration.ofSeconds(60);

		private Duration healthPollInterval = Duration.ofSeconds(5);

		private Duration drainDelay = Duration.ZERO;

		private @Nullable Path preStopFile;

		private @Nullable Path runMarker;

		private boolean runMarkerAtStart;

		private ThreadFactory threadFactory = EngineThreads.defaultFactory();

		private @Nullable Duration drainQuietPeriod;

		private Duration drainMinimum = Duration.ZERO;

		private int shutdownReports = 5;

		private @Nullable String applicationVersion;

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

		/**
		 * Makes the drain delay adaptive: it ends early once no activity
		 * ({@link LifecycleManager#recordActivity()}) was seen for the quiet period, but never before
		 * the minimum; the drain delay stays the upper bound. {@code null} (the default) keeps the
		 * fixed delay.
		 * @param quietPeriod how long traffic must have been quiet
		 * @param minimum the shortest drain, long enough for load balancers to see readiness DOWN
		 */
		public Builder drainQuietPeriod(@Nullable Duration quietPeriod, Duration minimum) {
			this.drainQuietPeriod = quietPeriod;
			this.drainMinimum = Objects.requireNonNull(minimum, "minimum");
			return this;
		}

		/** An absolute path whose appearance triggers a shutdown; {@code null} disables it. */
		public Builder preStopFile(@Nullable Path file) {
			this.preStopFile = file;
			return this;
		}

		/**
		 * A file kept while the process runs, so the next start can detect an unclean end;
		 * {@code null} disables it. It is written when the manager is built, and a previous
		 * process's marker found then is reported to listeners at {@link LifecycleManager#start()}.
		 */
		public Builder runMarker(@Nullable Path file) {
			this.runMarker = file;
			return this;
		}

		/**
		 * Writes the run marker, reads the previous process's records and starts this process's
		 * shutdown reports at {@link LifecycleManager#start()} rather than when the manager is built
		 * (default {@code false}). For a JVM that may be checkpointed between the two: only the
		 * process that starts, the one that lives the service's life, keeps records. A shutdown
		 * before the start is then not recorded.
		 */
		public Builder runMarkerAtStart(boolean atStart) {
			this.runMarkerAtStart = atStart;
			return this;
		}

		/**
		 * How many shutdown reports to keep next to the run marker (default 5; 0 writes none).
		 * Each shutdown writes a JSON report as it goes, so the next start, and anyone reading the
		 * directory, sees how the previous shutdown went even after a SIGKILL.
		 */
		public Builder shutdownReports(int keep) {
			this.shutdownReports = keep;
			return this;
		}

		/** The application's version, recorded in its shutdown reports; {@code null} when unknown. */
		public Builder applicationVersion(@Nullable String version) {
			this.applicationVersion = version;
			return this;
		}

		/**
		 * Where every engine thread comes from (the health monitor, active components, stop work,
		 * handlers, the sequence). The engine names each thread after its work and makes it a daemon
		 * if it is not one. Default: platform daemon threads.
		 */
		public Builder threadFactory(ThreadFactory threadFactory) {
			this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
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
		Builder ticker(Ticker ticker) {
			this.ticker = Objects.requireNonNull(ticker, "ticker");
			return this;
		}

		/** Tests drive the monitor themselves through {@code pollHealth()}. */
		Builder manualHealthPolling() {
			this.automaticHealthPolling = false;
			return this;
		}

		/**
		 * Validates the options and builds the manager; building writes the run marker, if one is
		 * set.
		 * @return a manager, not yet started
		 * @throws InvalidOptionException naming the first invalid option
		 */
		public LifecycleManager build() {
			validate();
			return new LifecycleManager(this);
		}

		/**
		 * Checks the options as {@link #build()} does, without building anything.
		 * @return this builder
		 * @throws InvalidOptionException naming the first invalid option
		 */
		public Builder validate() {
			if (this.serviceName == null || this.serviceName.isBlank()) {
				throw new IllegalArgumentException("serviceName must not be blank");
			}
			OptionRules.positive(null, "globalShutdownTimeout", this.globalShutdownTimeout);
			OptionRules.positive(null, "healthPollInterval", this.healthPollInterval);
			OptionRules.notNegative(null, "drainDelay", this.drainDelay);
			if (this.drainDelay.compareTo(this.globalShutdownTimeout) >= 0) {
				throw new InvalidOptionException(null, "drainDelay", "(" + this.drainDelay
						+ ") must be shorter than globalShutdownTimeout (" + this.globalShutdownTimeout
						+ "), which bounds it");
			}
			if (this.drainQuietPeriod != null && !this.drainDelay.isZero()) {
				OptionRules.positive(null, "drainQuietPeriod", this.drainQuietPeriod);
				if (this.drainMinimum.isNegative() || this.drainMinimum.compareTo(this.drainDelay) > 0) {
					throw new InvalidOptionException(null, "drainMinimum", "(" + this.drainMinimum
							+ ") must be between 0 and drainDelay (" + this.drainDelay + ")");
				}
			}
			OptionRules.count(null, "shutdownReports", this.shutdownReports, 0);
			if (this.preStopFile != null && !this.preStopFile.isAbsolute()) {
				throw new InvalidOptionException(null, "preStopFile",
						"must be an absolute path but was '" + this.preStopFile + "'");
			}
			if (this.preStopFile != null) {
				PreStopWatcher.check(this.preStopFile);
			}
			if (this.runMarker != null) {
				RunMarker.check(this.runMarker);
			}
			return this;
		}

	}

}
