package dev.lifecycle.autoconfigure.component;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.PassiveComponent;
import org.jspecify.annotations.Nullable;

import org.springframework.context.Lifecycle;
import org.springframework.context.SmartLifecycle;

/**
 * One adopted Spring bean as a passive component: a {@link Lifecycle} bean, an executor or both.
 * Spring starts it in its phase as usual; the engine stops it in the drain of its tier, on a stop
 * thread of its own, so the beans of one phase stop concurrently and each is bounded by its own
 * budget.
 *
 * <p>A {@link SmartLifecycle} is stopped through {@link SmartLifecycle#stop(Runnable)} and counts
 * as stopped when it calls back, so a bean that hands its stop to another thread (a listener
 * container) is waited for. An executor or scheduler is drained as {@link AdoptedExecutor} says:
 * no new work, a scheduler fires no new trigger, the accepted tasks finish, nothing is interrupted,
 * and the threads of tasks still running are named when its budget runs out. A stop that throws
 * ends the component as died at once.
 *
 * <p>As in Spring, a bean is stopped only after the adopted beans of its phase that depend on it
 * have stopped (or ended otherwise: died, never started); its budget covers that wait. Beans in
 * higher phases have stopped already; the processor warns about dependents in lower phases.
 */
final class AdoptedLifecycleBean implements PassiveComponent {

	private static final long DEPENDENT_CHECK_MILLIS = 50;

	private final @Nullable Lifecycle bean;

	private final @Nullable AdoptedExecutor executor;

	private final CountDownLatch stopped = new CountDownLatch(1);

	private volatile List<Dependent> dependents = List.of();

	AdoptedLifecycleBean(Lifecycle bean) {
		this(bean, null);
	}

	/** @param bean the Lifecycle bean, {@code null} for an executor that is not one */
	AdoptedLifecycleBean(@Nullable Lifecycle bean, @Nullable AdoptedExecutor executor) {
		this.bean = bean;
		this.executor = executor;
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

	@Override
	public Set<Thread> threads() {
		return (this.executor != null) ? this.executor.threads() : Set.of();
	}

	private void stopBean() throws Exception {
		if (this.executor != null) {
			this.executor.drain();
			return;
		}
		if (this.bean == null || !this.bean.isRunning()) {
			return;
		}
		if (this.bean instanceof SmartLifecycle smart) {
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

}
