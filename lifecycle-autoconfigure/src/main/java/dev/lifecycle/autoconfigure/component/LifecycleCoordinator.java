package dev.lifecycle.autoconfigure.component;

import java.util.List;

import dev.lifecycle.autoconfigure.process.ShutdownExit;
import dev.lifecycle.autoconfigure.process.StartProgress;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.TriggerSource;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextRefreshedEvent;

/**
 * The one {@link SmartLifecycle} between Spring and the engine: it starts the engine once
 * the context is refreshed and, on close, runs the whole shutdown sequence, blocking the
 * closing thread until the report. Its {@link #PHASE} is above the web server's graceful
 * shutdown and its stop blocks, so the web server keeps serving through the drain and
 * Spring's {@code timeout-per-shutdown-phase} cannot cut the drain short; the global
 * ceiling bounds it. A close is a shutdown with source {@code context-close}, or
 * {@code start-failed} when the refresh or the application's run failed.
 */
@Internal
public final class LifecycleCoordinator implements EngineLink, SmartLifecycle, SmartInitializingSingleton,
		DisposableBean, ApplicationContextAware, ApplicationListener<ApplicationEvent> {

	/**
	 * Above the web server's graceful shutdown, {@code DEFAULT_PHASE - 1024}: it stops
	 * first.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

	private final LifecycleManager manager;

	private final ManagedComponentRegistrar registrar;

	private final ShutdownExit exit;

	private final boolean adoption;

	private volatile boolean running;

	private volatile @Nullable ApplicationContext context;

	/** Whether this coordinator's own context finished its refresh. */
	private volatile boolean refreshed;

	/**
	 * Creates the coordinator and attaches the listeners to the manager, so they are
	 * attached whether the manager is Lifecycle's or the user's own.
	 * @param adoption whether Spring Lifecycle beans are adopted when the context
	 * refreshes (the {@code lifecycle.components} entries are then checked after the
	 * adoption)
	 */
	LifecycleCoordinator(LifecycleManager manager, ManagedComponentRegistrar registrar, ShutdownExit exit,
			List<LifecycleListener> listeners, boolean adoption) {
		this.manager = manager;
		this.registrar = registrar;
		this.exit = exit;
		this.adoption = adoption;
		listeners.forEach(manager::addListener);
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.registrar.singletonsInstantiated(this.manager, this.adoption);
	}

	@Override
	public void start() {
		this.registrar.registerHandlers(this.manager);
		this.exit.hold();
		try {
			this.manager.start();
		}
		catch (RuntimeException ex) {
			// A component failed to start and the engine is already shutting down: let it
			// drain what did start, then let the failed refresh report the failure and
			// end the process.
			this.exit.contextClosing();
			EngineLink.awaitReport(this.manager);
			throw ex;
		}
		this.running = true;
		this.exit.replayEarlySignals();
		this.exit.release();
	}

	@Override
	public void stop() {
		if (!this.running) {
			return;
		}
		this.exit.contextClosing();
		if (!this.manager.isShutdownInitiated()) {
			ApplicationContext context = this.context;
			StartProgress.Stage stage = (context != null) ? StartProgress.of(context) : null;
			boolean jvmEnding = this.exit.jvmIsEnding();
			if (stage == StartProgress.Stage.REFRESHED && !jvmEnding) {
				// Closed after the refresh but before the application was ready: a runner
				// or an ApplicationReadyEvent listener threw, and the run fails with exit
				// code 1.
				this.manager.triggerShutdown(ShutdownReason.START_FAILED, TriggerSource.APPLICATION_RUN.label(),
						"the application's run failed after the refresh (a runner or a ready listener threw)");
			}
			else if ((stage == null) ? this.refreshed
					: (stage == StartProgress.Stage.READY || jvmEnding && this.refreshed)) {
				this.manager.triggerShutdown(ShutdownReason.SIGNAL, TriggerSource.CONTEXT_CLOSE.label());
			}
			else {
				// Stopped before the refresh finished: the refresh failed after the
				// engine started (a bean's start, when the lifecycle processor is
				// Spring's own, or a refresh listener).
				this.manager.triggerShutdown(ShutdownReason.START_FAILED, TriggerSource.REFRESH.label(),
						"the application context's refresh failed after the components started");
			}
		}
		EngineLink.awaitReport(this.manager);
		this.running = false;
		if (!this.exit.ownsProcess()) {
			// The context closed by someone else's hand and the JVM may live on (a test,
			// a DevTools restart): give the JVM its own signal handling back.
			this.exit.stopListening();
		}
	}

	/**
	 * A bean's start threw and the refresh is failing, whether the engine had started or
	 * not: the shutdown is a failed start naming the bean and the cause, and this waits
	 * for its report. The failed refresh owns the process (Spring Boot reports the
	 * failure and exits with 1).
	 */
	@Override
	public void startFailed(String bean, Throwable cause) {
		this.exit.contextClosing();
		this.manager.triggerShutdown(ShutdownReason.START_FAILED, bean, String.valueOf(cause));
		EngineLink.awaitReport(this.manager);
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		// A child context's refresh (a separate management server) reaches this listener
		// too.
		if (event instanceof ContextRefreshedEvent refresh && refresh.getApplicationContext() == this.context) {
			this.refreshed = true;
		}
		else if (event instanceof ApplicationFailedEvent failed && failed.getApplicationContext() == this.context
				&& this.running && !this.manager.isShutdownInitiated()) {
			// The context refreshed but the application's run failed (a runner threw):
			// Spring Boot closes the context next and exits with 1.
			startFailed(TriggerSource.APPLICATION_RUN.label(), failed.getException());
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/** Pausing a context must not shut the application down: the sequence is one-way. */
	@Override
	public boolean isPauseable() {
		return false;
	}

	/**
	 * A refresh that failed after the engine started never calls {@link #stop()}; run the
	 * sequence here so components are still drained.
	 */
	@Override
	public void destroy() {
		stop();
	}

}
