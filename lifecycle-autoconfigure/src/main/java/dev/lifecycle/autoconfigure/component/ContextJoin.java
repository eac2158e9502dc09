package dev.lifecycle.autoconfigure.component;

import java.util.List;

import dev.lifecycle.autoconfigure.process.ShutdownExit;
import dev.lifecycle.autoconfigure.process.StartProgress;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.TriggerSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextRefreshedEvent;

/**
 * What a child context gets when an ancestor context already runs the engine (a
 * {@code SpringApplicationBuilder} hierarchy): there is one engine per process, the
 * root's, and the child joins it instead of building a second engine, signal trap, exit
 * owner or watchdog. Its {@code @ManagedComponent} beans, shutdown handlers, final
 * actions and adopted beans (its web server's closing steps too) are registered with that
 * engine after its start and started here, at the coordinator's phase, so one shutdown
 * drains the whole application in one order and writes one report. The child's close runs
 * that shutdown and waits for its report, as the coordinator does; a failed start of the
 * child is the engine's failed start, and closing the child ends the application.
 */
final class ContextJoin implements EngineLink, SmartLifecycle, SmartInitializingSingleton, DisposableBean,
		ApplicationContextAware, ApplicationListener<ApplicationEvent> {

	private static final Log logger = LogFactory.getLog(ContextJoin.class);

	private final LifecycleManager manager;

	private final ManagedComponentRegistrar registrar;

	/** The root's exit, or {@code null} when signals are not trapped there. */
	private final @Nullable ShutdownExit exit;

	private final boolean adoption;

	private volatile boolean running;

	private volatile boolean refreshed;

	private volatile @Nullable ApplicationContext context;

	/**
	 * @param exit the exit of the context that runs the engine, told when the child's
	 * close or failure is what ends the application: whoever closes it owns the process
	 * @param listeners the child's own listeners (its web server's drain), attached to
	 * the engine at once
	 * @param adoption whether the child's Spring Lifecycle beans are adopted
	 */
	ContextJoin(LifecycleManager manager, ManagedComponentRegistrar registrar, @Nullable ShutdownExit exit,
			List<LifecycleListener> listeners, boolean adoption) {
		this.manager = manager;
		this.registrar = registrar;
		this.exit = exit;
		this.adoption = adoption;
		listeners.forEach(manager::addListener);
	}

	/**
	 * Whether a context with this bean factory joins an ancestor's engine: it defines no
	 * manager of its own and an ancestor does.
	 */
	static boolean joins(ListableBeanFactory beanFactory) {
		return beanFactory.getBeanNamesForType(LifecycleManager.class, true, false).length == 0 && BeanFactoryUtils
			.beanNamesForTypeIncludingAncestors(beanFactory, LifecycleManager.class, true, false).length > 0;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.registrar.singletonsInstantiated(this.manager, this.adoption);
	}

	@Override
	public void start() {
		this.registrar.registerHandlers(this.manager);
		try {
			LifecycleHost.of(this.manager).startJoined();
		}
		catch (RuntimeException ex) {
			// A component of the child failed to start and the engine is shutting down:
			// let it drain, then let the failed refresh report the failure and end the
			// process.
			closedByOthers();
			EngineLink.awaitReport(this.manager);
			throw ex;
		}
		this.running = true;
		logger.info("Lifecycle: this child application context joined the engine of its parent context");
	}

	@Override
	public void stop() {
		if (!this.running) {
			return;
		}
		closedByOthers();
		if (!this.manager.isShutdownInitiated()) {
			ApplicationContext context = this.context;
			StartProgress.Stage stage = (context != null) ? StartProgress.of(context) : null;
			if (stage == StartProgress.Stage.REFRESHED) {
				this.manager.triggerShutdown(ShutdownReason.START_FAILED, TriggerSource.APPLICATION_RUN.label(),
						"the child application context's run failed after the refresh");
			}
			else if ((stage == null) ? this.refreshed : (stage == StartProgress.Stage.READY)) {
				this.manager.triggerShutdown(ShutdownReason.SIGNAL, TriggerSource.CONTEXT_CLOSE.label(),
						"a child application context closed");
			}
			else {
				this.manager.triggerShutdown(ShutdownReason.START_FAILED, TriggerSource.REFRESH.label(),
						"the child application context's refresh failed after its components started");
			}
		}
		EngineLink.awaitReport(this.manager);
		this.running = false;
	}

	@Override
	public void startFailed(String bean, Throwable cause) {
		closedByOthers();
		this.manager.triggerShutdown(ShutdownReason.START_FAILED, bean, String.valueOf(cause));
		EngineLink.awaitReport(this.manager);
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (event instanceof ContextRefreshedEvent refresh && refresh.getApplicationContext() == this.context) {
			this.refreshed = true;
		}
		else if (event instanceof ApplicationFailedEvent failed && failed.getApplicationContext() == this.context
				&& this.running && !this.manager.isShutdownInitiated()) {
			startFailed(TriggerSource.APPLICATION_RUN.label(), failed.getException());
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return LifecycleCoordinator.PHASE;
	}

	/** Pausing a context must not shut the application down: the sequence is one-way. */
	@Override
	public boolean isPauseable() {
		return false;
	}

	@Override
	public void destroy() {
		stop();
	}

	/**
	 * The child's close or failed run ends the application: unless Lifecycle already ends
	 * it, whoever closes the child (a failed run: Spring Boot) owns the process.
	 */
	private void closedByOthers() {
		if (this.exit != null) {
			this.exit.contextClosing();
		}
	}

}
