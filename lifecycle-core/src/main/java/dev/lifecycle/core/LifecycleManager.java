package dev.lifecycle.core;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.function.BiFunction;

import dev.lifecycle.core.component.CoarseClock;
import dev.lifecycle.core.component.Component;
import dev.lifecycle.core.component.ComponentWork;
import dev.lifecycle.core.component.CriticalExecutor;
import dev.lifecycle.core.component.EngineThreads;
import dev.lifecycle.core.component.Ticker;
import dev.lifecycle.core.sequence.Listeners;
import org.jspecify.annotations.Nullable;

/**
 * The engine's front door: register components and shutdown work, {@link #start()}, and
 * the first trigger runs the one shutdown sequence, bounded by the global ceiling, whose
 * {@link ShutdownReport} ends the engine's life. It tells what it does only to
 * {@link LifecycleListener}s, so a host observes the engine without reaching into it.
 * What it guarantees, and what each setting means, is in the manual
 * ({@code docs/concepts.md}).
 */
public final class LifecycleManager {

	private final EngineSettings settings;

	private final EngineThreads threads;

	private final CoarseClock clock;

	private final Traffic traffic = new Traffic();

	private final RunRecords records;

	private final ComponentRegistry registry;

	private final Termination termination;

	private final Triggers triggers;

	private final ComponentOutcomes outcomes;

	private final EngineStart start;

	private final LifecycleHost host;

	private LifecycleManager(EngineSettings settings) {
		this.settings = settings;
		this.threads = new EngineThreads(settings.threadFactory());
		this.clock = new CoarseClock(settings.ticker());
		Listeners listeners = new Listeners(settings.listeners());
		this.records = new RunRecords(settings, listeners);
		this.records.openAtBuild();
		Path preStopFile = settings.preStopFile();
		PreStopWatcher watcher = (preStopFile != null) ? new PreStopWatcher(preStopFile) : null;
		this.registry = new ComponentRegistry(settings.optionsResolver(), listeners);
		this.termination = new Termination(this.records, watcher, listeners, this.threads);
		this.triggers = new Triggers(settings, this.registry, this.threads, listeners, this.traffic, this.termination);
		this.outcomes = new ComponentOutcomes(listeners, this.registry, this.threads, this.triggers);
		this.start = new EngineStart(settings, this.registry, this.records, this.triggers, watcher, this.threads,
				this.clock);
		this.host = new EngineHost(this.traffic, this.triggers, this.termination, this.registry, this.start);
	}

	/**
	 * Starts building a manager for the service of this name, the {@code service_name}
	 * label.
	 */
	public static Builder builder(String serviceName) {
		return new Builder(serviceName);
	}

	// ---- registration, refused after the start; a duplicate name or invalid options
	// throw -------

	/**
	 * Registers a component whose code runs on threads of its own, until its process
	 * scope closes.
	 */
	public ComponentHandle register(String name, ComponentOptions options) {
		return add(name, options, ComponentWork.NONE).handle();
	}

	/**
	 * Registers a component run on an engine thread from {@link #start()}; returning or
	 * throwing ends it.
	 */
	public ComponentHandle registerActive(String name, ComponentOptions options, ActiveComponent component) {
		Objects.requireNonNull(component, "component");
		return add(name, options, ComponentWork.active(component, this.threads)).handle();
	}

	/**
	 * Registers a component with start and stop callbacks; the return of its stop
	 * callback ends it.
	 */
	public ComponentHandle registerPassive(String name, ComponentOptions options, PassiveComponent component) {
		Objects.requireNonNull(component, "component");
		return add(name, options, ComponentWork.passive(component)).handle();
	}

	/**
	 * Registers an executor as a critical component. The returned executor forwards to
	 * the delegate until the component's phase is told to stop; then it takes no new
	 * tasks, waits for every accepted one within the budget, runs later submissions on
	 * the submitting thread, and shuts the delegate down.
	 */
	public ExecutorService registerExecutor(String name, ComponentOptions options, ExecutorService delegate) {
		Objects.requireNonNull(delegate, "delegate");
		CriticalExecutor executor = new CriticalExecutor(delegate);
		add(name, options, ComponentWork.executor(executor));
		return executor;
	}

	private Component add(String name, ComponentOptions options, ComponentWork work) {
		return this.registry.add(name, options, (resolved, index) -> new Component(name, resolved, index, work,
				this.outcomes, this.threads, this.clock));
	}

	/**
	 * Adds a shutdown handler, run after the drain delay and before any component is told
	 * to stop, in the order added, each on its own thread within its timeout. One that
	 * throws or times out is logged, the sequence goes on, and the report is not clean.
	 */
	public void addShutdownHandler(String name, Duration timeout, ShutdownTask handler) {
		this.registry.addHandler(name, timeout, Objects.requireNonNull(handler, "handler"));
	}

	/**
	 * Adds a final action, run after the standard drain; final actions run in reverse
	 * order of adding.
	 */
	public void addFinalAction(String name, Runnable action) {
		this.registry.addFinalAction(name, Objects.requireNonNull(action, "action"));
	}

	/**
	 * Adds a closing step, run after the observability drain and before the
	 * infrastructure drain, in the order added (the web server's stop, say); bounded and
	 * judged as a shutdown handler.
	 */
	public void addClosingStep(String name, Duration timeout, ShutdownTask step) {
		this.registry.addClosingStep(name, timeout, Objects.requireNonNull(step, "step"));
	}

	/**
	 * Adds a last step, run after the infrastructure drain and before the report, in the
	 * order added: what observes the whole shutdown (a separate management server);
	 * bounded as a closing step.
	 */
	public void addLastStep(String name, Duration timeout, ShutdownTask step) {
		this.registry.addLastStep(name, timeout, Objects.requireNonNull(step, "step"));
	}

	/**
	 * Adds a listener. It first hears of every component registered so far, as if it had
	 * been there; of other events it hears only those that fire after it was added.
	 */
	public void addListener(LifecycleListener listener) {
		this.registry.addListener(Objects.requireNonNull(listener, "listener"));
	}

	// ---- start and triggers
	// --------------------------------------------------------------------

	/**
	 * Starts every component in ascending phase order (registration order within a
	 * phase), the health monitor and the pre-stop watcher. After an earlier trigger
	 * nothing starts and the call returns normally: the shutdown's report stands.
	 * @throws IllegalStateException if already started, or if a passive start callback
	 * threw (the manager is then shutting down with reason
	 * {@link ShutdownReason#START_FAILED})
	 */
	public void start() {
		this.start.run();
	}

	/**
	 * One health-monitor cycle, for tests and benchmarks that drive the monitor
	 * themselves.
	 */
	void pollHealth() {
		this.start.pollHealth();
	}

	/** As {@link #triggerShutdown(ShutdownReason, String, String)} with no detail. */
	public boolean triggerShutdown(ShutdownReason reason, String source) {
		return triggerShutdown(reason, source, "");
	}

	/**
	 * Starts the shutdown sequence unless one has already started. Only the reasons an
	 * outside caller can stand for are accepted: {@code SIGNAL}, {@code PRESTOP},
	 * {@code REQUESTED}, {@code FAILURE} and {@code START_FAILED}.
	 * @param source the component, bean or source responsible, e.g. {@code "signal"}
	 * @param detail what happened, empty when there is nothing to add
	 * @return {@code true} if this call started the sequence, {@code false} if another
	 * trigger won
	 * @throws IllegalArgumentException for {@code STALLED}, {@code DIED} or
	 * {@code COMPLETED}
	 */
	public boolean triggerShutdown(ShutdownReason reason, String source, String detail) {
		return this.triggers.fireFromOutside(reason, source, detail);
	}

	/** The calls only the host makes, kept off this type's API. */
	LifecycleHost host() {
		return this.host;
	}

	// ---- queries
	// -------------------------------------------------------------------------------

	/** The service name, the {@code service_name} label. */
	public String serviceName() {
		return this.settings.serviceName();
	}

	/** The ceiling that bounds the sequence from its trigger to its report. */
	public Duration globalShutdownTimeout() {
		return this.settings.globalShutdownTimeout();
	}

	/** {@code true} from the first instant of a shutdown. */
	public boolean isShutdownInitiated() {
		return this.triggers.isInitiated();
	}

	/**
	 * Readiness: {@code true} until a shutdown starts, {@code false} from its first
	 * instant.
	 */
	public boolean isReady() {
		return !this.triggers.isInitiated();
	}

	/** The trigger that started the shutdown, once one has. */
	public Optional<ShutdownTrigger> trigger() {
		return Optional.ofNullable(this.triggers.current());
	}

	/** The handle of a registered component. */
	public Optional<ComponentHandle> handle(String name) {
		return this.registry.find(name).map(Component::handle);
	}

	/** Live views of every registered component, in registration order. */
	public List<ComponentView> components() {
		return List.copyOf(this.registry.components());
	}

	/**
	 * What is known of the previous process when a run marker is kept (from the start, if
	 * opened there).
	 */
	public Optional<PreviousRun> previousRun() {
		return this.records.previousRun();
	}

	/**
	 * This process's identity (its host's name and a random part), written in its run
	 * marker; empty while it holds none (no marker set, another live process holds it, or
	 * it opens at the start). What a process stamps with it, the next process of the same
	 * marker knows for its predecessor's through {@link PreviousRun#instance()}.
	 */
	public Optional<String> instance() {
		return this.records.instance();
	}

	/** The report, once the sequence has ended. */
	public Optional<ShutdownReport> report() {
		return this.termination.report();
	}

	/**
	 * A stage completed with the report when the sequence ends; callers cannot complete
	 * it.
	 */
	public CompletionStage<ShutdownReport> termination() {
		return this.termination.stage();
	}

	/** Blocks until the sequence ends, and returns its report. */
	public ShutdownReport awaitTermination() throws InterruptedException {
		return this.termination.await();
	}

	/** Blocks until the sequence ends or the timeout elapses; empty on timeout. */
	public Optional<ShutdownReport> awaitTermination(Duration timeout) throws InterruptedException {
		return this.termination.await(timeout);
	}

	/**
	 * Builds a {@link LifecycleManager}. Defaults: global shutdown timeout 60 s, health
	 * poll interval 5 s, drain delay 0, no pre-stop file, no run marker, 5 shutdown
	 * reports, platform daemon threads. The meaning of each setting is in the manual
	 * ({@code docs/concepts.md}).
	 */
	public static final class Builder {

		// One field per EngineSettings component, in its order; each is documented on its
		// setter.
		private final String serviceName;

		private Duration globalShutdownTimeout = Duration.ofSeconds(60);

		private Duration healthPollInterval = Duration.ofSeconds(5);

		private Duration drainDelay = Duration.ZERO;

		private @Nullable Duration drainQuietPeriod;

		private Duration drainMinimum = Duration.ZERO;

		private @Nullable Path preStopFile;

		private @Nullable Path runMarker;

		private boolean runMarkerAtStart;

		private int shutdownReports = 5;

		private @Nullable String applicationVersion;

		private int incompleteExitCode = ExitCodes.INCOMPLETE;

		private boolean automaticHealthPolling = true;

		private ThreadFactory threadFactory = EngineThreads.defaultFactory();

		private Ticker ticker = Ticker.system();

		private BiFunction<String, ComponentOptions, ComponentOptions> optionsResolver = (name, options) -> options;

		private final List<LifecycleListener> listeners = new ArrayList<>();

		private Builder(String serviceName) {
			this.serviceName = serviceName;
		}

		/** Hard ceiling on the sequence from its trigger to its report. */
		public Builder globalShutdownTimeout(Duration timeout) {
			this.globalShutdownTimeout = timeout;
			return this;
		}

		/**
		 * How often the health monitor polls components that have a liveness deadline.
		 */
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
		 * Ends the drain delay early once no {@link LifecycleHost#recordActivity()
		 * activity} was seen for the quiet period, but never before the minimum;
		 * {@code null} keeps a fixed delay.
		 */
		public Builder drainQuietPeriod(@Nullable Duration quietPeriod, Duration minimum) {
			this.drainQuietPeriod = quietPeriod;
			this.drainMinimum = Objects.requireNonNull(minimum, "minimum");
			return this;
		}

		/**
		 * An absolute path whose appearance triggers a shutdown; {@code null} disables
		 * it.
		 */
		public Builder preStopFile(@Nullable Path file) {
			this.preStopFile = file;
			return this;
		}

		/**
		 * A file kept while the process runs, so the next start can detect an unclean
		 * end; written when the manager is built; {@code null} disables it.
		 */
		public Builder runMarker(@Nullable Path file) {
			this.runMarker = file;
			return this;
		}

		/**
		 * Opens the run marker and the shutdown reports at
		 * {@link LifecycleManager#start()} rather than at build (default {@code false}),
		 * for a JVM that may be checkpointed between the two.
		 */
		public Builder runMarkerAtStart(boolean atStart) {
			this.runMarkerAtStart = atStart;
			return this;
		}

		/**
		 * How many shutdown reports to keep next to the run marker (default 5; 0 writes
		 * none).
		 */
		public Builder shutdownReports(int keep) {
			this.shutdownReports = keep;
			return this;
		}

		/**
		 * The application's version, recorded in its shutdown reports; {@code null} when
		 * unknown.
		 */
		public Builder applicationVersion(@Nullable String version) {
			this.applicationVersion = version;
			return this;
		}

		/**
		 * The exit code of a shutdown that left work for a later run (default
		 * {@link ExitCodes#INCOMPLETE}); 0 makes such a shutdown exit as a clean one,
		 * though its report still says it is not clean. It must be between 0 and 255 and
		 * must not be another of the {@link ExitCodes#declared() declared codes}.
		 */
		public Builder incompleteExitCode(int code) {
			this.incompleteExitCode = code;
			return this;
		}

		/**
		 * Where every engine thread comes from; each is named after its work and made a
		 * daemon.
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
		 * Resolves the effective options of every component at registration, before they
		 * are validated: the place where configuration overrides what the code declared.
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
		 * Validates the settings and builds the manager, writing the run marker if one is
		 * set.
		 * @throws InvalidOptionException naming the first invalid setting
		 */
		public LifecycleManager build() {
			return new LifecycleManager(settings());
		}

		/**
		 * Checks the settings as {@link #build()} does, without building anything.
		 * @throws InvalidOptionException naming the first invalid setting
		 */
		public Builder validate() {
			settings();
			return this;
		}

		private EngineSettings settings() {
			return new EngineSettings(this.serviceName, this.globalShutdownTimeout, this.healthPollInterval,
					this.drainDelay, this.drainQuietPeriod, this.drainMinimum, this.preStopFile, this.runMarker,
					this.runMarkerAtStart, this.shutdownReports, this.applicationVersion, this.incompleteExitCode,
					this.automaticHealthPolling, this.threadFactory, this.ticker, this.optionsResolver, this.listeners);
		}

	}

}
