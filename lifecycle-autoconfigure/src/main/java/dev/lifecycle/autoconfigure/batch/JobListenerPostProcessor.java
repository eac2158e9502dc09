package dev.lifecycle.autoconfigure.batch;

import org.springframework.batch.core.job.AbstractJob;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Gives every {@link AbstractJob} bean (what {@code JobBuilder} builds) the listeners
 * that tell {@link RunningJobs} which executions run, so jobs need no code to be drained:
 * one ordered first, one registered last (so its {@code afterJob} is called first).
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
				job.registerJobExecutionListener(listener.first());
				job.registerJobExecutionListener(listener);
			}
		}
		return bean;
	}

}
