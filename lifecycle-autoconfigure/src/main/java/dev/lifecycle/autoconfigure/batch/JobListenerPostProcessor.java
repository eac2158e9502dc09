package dev.lifecycle.autoconfigure.batch;

import org.springframework.batch.core.job.AbstractJob;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Gives every {@link AbstractJob} bean (what {@code JobBuilder} builds) the listener that
 * tells {@link RunningJobs} which executions run, so jobs need no code to be drained.
 */
final class JobListenerPostProcessor implements BeanPostProcessor {

	private final ObjectProvider<RunningJobs> running;

	JobListenerPostProcessor(ObjectProvider<RunningJobs> running) {
		this.running = running;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof AbstractJob job) {
			RunningJobs listener = this.running.getIfAvailable();
			if (listener != null) {
				job.registerJobExecutionListener(listener);
			}
		}
		return bean;
	}

}
