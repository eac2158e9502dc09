package dev.lifecycle.core;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lifecycle.core.component.CoarseClock;
import dev.lifecycle.core.component.Component;
import dev.lifecycle.core.component.EngineThreads;
import dev.lifecycle.core.component.HealthMonitor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start, run once: closes registration, reports the previous run, starts the health
 * monitor and the pre-stop watcher, then each component in phase order. A trigger that
 * came first wins: nothing starts after it, so no component runs that the sequence has
 * already settled.
 */
final class EngineStart {

	/** The manager's lines keep its logger name, which users filter and configure. */
	private static final Logger logger = LoggerFactory.getLogger(LifecycleManager.class);

	private final EngineSettings settings;

	private final ComponentRegistry registry;

	private final RunRecords records;

	private final Triggers triggers;

	private final @Nullable PreStopWatcher preStopWatcher;

	private final EngineThreads threads;

	private final CoarseClock clock;

	/** Made at the start over the components then registered; {@code null} before. */
	private volatile @Nullable HealthMonitor healthMonitor;

	/** One per join that started components, over those components. */
	private final List<HealthMonitor> joinedMonitors = new CopyOnWriteArrayList<>();

	EngineStart(EngineSettings settings, ComponentRegistry registry, RunRecords records, Triggers triggers,
			@Nullable PreStopWatcher preStopWatcher, EngineThreads threads, CoarseClock clock) {
		this.settings = settings;
		this.registry = registry;
		this.records = records;
		this.triggers = triggers;
		this.preStopWatcher = preStopWatcher;
		this.threads = threads;
		this.clock = clock;
	}

	/**
	 * @throws IllegalStateException if already started, or if a start callback threw (the
	 * engine is then shutting down)
	 */
	void run() {
		List<Component> ordered = this.registry.closeForStart();
		this.records.openAtStart(this.triggers.isInitiated());
		this.records.announcePreviousRun();
		if (this.triggers.isInitiated()) {
			// A signal arrived between the application's first beans and this start, and
			// the sequence has already settled every component: nothing may start, and
			// the engine's threads may already be gone.
			logger.info("Lifecycle: the shutdown began before the start; no component starts");
			return;
		}
		HealthMonitor monitor = new HealthMonitor(ordered, this.clock);
		this.healthMonitor = monitor;
		if (this.settings.automaticHealthPolling()) {
			monitor.start(this.threads, this.settings.healthPollInterval());
		}
		PreStopWatcher watcher = this.preStopWatcher;
		Path file = this.settings.preStopFile();
		if (watcher != null && file != null) {
			watcher.removeStaleFile();
			this.threads.newThread("lifecycle-prestop", () -> watcher
				.run(() -> this.triggers.fire(ShutdownReason.PRESTOP, TriggerSource.PRESTOP.label(), file.toString())))
				.start();
		}
		startInOrder(ordered);
		logger.info("Lifecycle: started {} component(s) for service '{}'", ordered.size(), this.settings.serviceName());
	}

	/**
	 * Starts what joined after the start, as {@link #run()} starts the others: their
	 * liveness deadlines are watched, and after a trigger nothing starts.
	 * @throws IllegalStateException if a start callback threw (the engine is then
	 * shutting down)
	 */
	void startJoined() {
		List<Component> ordered = this.registry.closeJoin();
		if (ordered.isEmpty() || this.triggers.isInitiated()) {
			return;
		}
		HealthMonitor monitor = new HealthMonitor(ordered, this.clock);
		this.joinedMonitors.add(monitor);
		if (this.settings.automaticHealthPolling()) {
			monitor.start(this.threads, this.settings.healthPollInterval());
		}
		startInOrder(ordered);
		logger.info("Lifecycle: started {} component(s) that joined the running engine of service '{}'", ordered.size(),
				this.settings.serviceName());
	}

	private void startInOrder(List<Component> ordered) {
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
	}

	/**
	 * One health-monitor cycle, for tests and benchmarks that drive the monitor
	 * themselves.
	 */
	void pollHealth() {
		HealthMonitor monitor = this.healthMonitor;
		if (monitor != null) {
			monitor.poll();
		}
		this.joinedMonitors.forEach(HealthMonitor::poll);
	}

}
