package dev.lifecycle.autoconfigure;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.PassiveComponent;

import org.springframework.context.Lifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.ExecutorConfigurationSupport;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * One adopted Spring {@link Lifecycle} bean as a passive component. Spring starts it in its phase
 * as usual; the engine stops it in the standard drain, on a stop thread of its own, so the beans
 * of one phase stop concurrently and each is bounded by its own budget.
 *
 * <p>A {@link SmartLifecycle} is stopped through {@link SmartLifecycle#stop(Runnable)} and counts
 * as stopped when it calls back, so a bean that hands its stop to another thread (a listener
 * container) is waited for. A Spring task executor or scheduler stops taking new work (a scheduler
 * fires no new trigger, not even one already due later) and its accepted tasks finish; nothing is
 * interrupted. A stop that throws ends the component as died at once.
 *
 * <p>As in Spring, a bean is stopped only after the adopted beans of its phase that depend on it
 * have stopped (or ended otherwise: died, never started); its budget covers that wait. Beans in
 * higher phases have stopped already; the processor warns about dependents in lower phases.
 */
final class AdoptedLifecycleBean implements PassiveComponent {

	private static final long DEPENDENT_CHECK_MILLIS = 50;

	private final Lifecycle bean;

	private final CountDownLatch stopped = new CountDownLatch(1);

	private volatile List<Dependent> dependents = List.of();

	AdoptedLifecycleBean(Lifecycle bean) {
		this.bean = bean;
	}

	/** The adopted beans of the same phase that depend on this one, with their components. */
	void dependents(List<Dependent> dependents) {
		this.dependents = List.copyOf(dependents);
	}

	@Override
	public void start(ComponentHandle handle) {
		// Spring starts the bean in its phase; starting it here too would start it twice.
	}

	@Override
	public void stop(ComponentHandle handle) throws Exception {
		try {
			for (Dependent dependent : this.dependents) {
				dependent.awaitStopped();
			}
			stopBean();
		}
		finally {
			this.stopped.countDown();
		}
	}

	private void stopBean() throws Exception {
		if (!this.bean.isRunning()) {
			return;
		}
		if (this.bean instanceof ExecutorConfigurationSupport executor) {
			drain(executor);
		}
		else if (this.bean instanceof SmartLifecycle smart) {
			CountDownLatch stopped = new CountDownLatch(1);
			smart.stop(stopped::countDown);
			stopped.await();
		}
		else {
			this.bean.stop();
		}
	}

	/**
	 * An adopted bean that must stop first. A component that ended without its stop being called
	 * (it died, or never started) releases the wait too.
	 */
	record Dependent(AdoptedLifecycleBean bean, ComponentView component) {

		void awaitStopped() throws InterruptedException {
			while (!this.bean.stopped.await(DEPENDENT_CHECK_MILLIS, TimeUnit.MILLISECONDS)) {
				if (this.component.state().isTerminal()) {
					return;
				}
			}
		}

	}

	private static void drain(ExecutorConfigurationSupport executor) throws InterruptedException {
		ExecutorService service = null;
		if (executor instanceof ThreadPoolTaskScheduler scheduler) {
			ScheduledThreadPoolExecutor scheduled = scheduler.getScheduledThreadPoolExecutor();
			// Triggers not yet due are dropped at shutdown rather than fired later.
			scheduled.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
			scheduled.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
			service = scheduled;
		}
		else if (executor instanceof ThreadPoolTaskExecutor taskExecutor) {
			service = taskExecutor.getThreadPoolExecutor();
		}
		// Not shutdownNow: a task that is running is allowed to finish within the budget.
		executor.initiateShutdown();
		if (service != null) {
			while (!service.awaitTermination(1, TimeUnit.HOURS)) {
				// The engine's budget, not this loop, decides how long the wait may last.
			}
		}
	}

}
