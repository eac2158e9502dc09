package dev.lifecycle.autoconfigure.process;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.TriggerSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;

/**
 * Records a start that failed before the engine started (a bean's constructor threw, or
 * one of Lifecycle's own checks refused a setting): when the context destroys a manager
 * that no shutdown reached, the failed refresh is its shutdown, with reason
 * {@code start-failed} and source {@code refresh}, so its run marker is released and its
 * report says what the process did, and the next start does not take the exit for a
 * crash. It also lets a second signal during start-up record the forced exit (see
 * {@link EarlySignalTrap}).
 */
@Internal
public final class FailedStartRecorder implements DestructionAwareBeanPostProcessor, PriorityOrdered {

	private static final Log logger = LogFactory.getLog(FailedStartRecorder.class);

	private final boolean enabled;

	/**
	 * @param enabled whether Lifecycle is on: an inert manager
	 * ({@code lifecycle.enabled=false}) never starts, and its end is no failed start
	 */
	FailedStartRecorder(boolean enabled) {
		this.enabled = enabled;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		if (bean instanceof LifecycleManager manager) {
			EarlySignalTrap.records(manager);
		}
		return bean;
	}

	@Override
	public boolean requiresDestruction(Object bean) {
		return bean instanceof LifecycleManager;
	}

	@Override
	public void postProcessBeforeDestruction(Object bean, String beanName) throws BeansException {
		if (!(bean instanceof LifecycleManager manager)) {
			return;
		}
		EarlySignalTrap.forget(manager);
		if (!this.enabled || manager.isShutdownInitiated()) {
			// Off, or a shutdown already reached it (every ordinary close): nothing
			// failed, and whoever started that shutdown waits for it.
			return;
		}
		if (!manager.triggerShutdown(ShutdownReason.START_FAILED, TriggerSource.REFRESH.label(),
				"the application context failed before Lifecycle started")) {
			// A shutdown reached it: whoever started that one waits for it.
			return;
		}
		logger.info("Lifecycle: the application context closed before Lifecycle started; recorded as a failed start");
		try {
			manager.awaitTermination(ShutdownExit.reportWait(manager));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 1;
	}

}
