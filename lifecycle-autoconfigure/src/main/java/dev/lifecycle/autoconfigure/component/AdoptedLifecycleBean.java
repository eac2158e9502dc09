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
 * One adopted Spring bean (a {@link Lifecycle} bean, an executor or both) as a passive
 * component: Spring starts it in its phase, the engine stops it in its tier's drain on a
 * stop thread of its own, so the beans of a phase stop concurrently, each within its own
 * budget. A {@link SmartLifecycle} counts as stopped when its stop callback runs, so a
 * bean that hands its stop to another thread (a listener container) is waited for; a stop
 * that throws ends it as died. As in Spring, it stops only after the adopted beans of its
 * phase that depend on it have ended.
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

	/**
	 * @param bean the Lifecycle bean, {@code null} for an executor that is not one
	 */
	AdoptedLifecycleBean(@Nullable Lifecycle bean, @Nullable AdoptedExecutor executor) {
		this.bean = bean;
		this.executor = executor;
	}

	/**
	 * The adopted beans of the same phase that depend on this one, with their components.
	 */
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
	 * An adopted bean that must stop first. A component that ended without its stop being
	 * called (it died, or never started) releases the wait too.
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
