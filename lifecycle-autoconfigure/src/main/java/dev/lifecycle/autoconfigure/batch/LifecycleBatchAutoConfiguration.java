package dev.lifecycle.autoconfigure.batch;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.component.LifecycleComponentAutoConfiguration;
import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.LifecycleManager;

import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Spring Batch jobs at a restart, with no code from the application: every
 * {@code AbstractJob} bean reports its executions to one standard component,
 * {@code batch-jobs}, which stops them through the {@link JobOperator} at the drain and
 * waits for each job's thread, within its budget
 * ({@code lifecycle.components.batch-jobs.graceful-shutdown}, 20 s by default), before
 * the infrastructure (the DataSource, its pool) stops; and which, at start, recovers the
 * executions a killed predecessor left running ({@code lifecycle.batch.recover}). Each
 * step: {@code docs/batch.md}.
 */
@AutoConfiguration(after = LifecycleComponentAutoConfiguration.class)
@ConditionalOnClass(JobOperator.class)
@ConditionalOnLifecycleEnabled
@ConditionalOnBean(LifecycleManager.class)
@EnableConfigurationProperties(LifecycleBatchProperties.class)
public final class LifecycleBatchAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "lifecycleBatchRunningJobs")
	RunningJobs lifecycleBatchRunningJobs(LifecycleManager manager, ObjectProvider<JobRepository> repository) {
		return new RunningJobs(() -> manager.instance().orElse(null), repository);
	}

	@Bean
	static JobListenerPostProcessor lifecycleBatchJobListenerPostProcessor(ObjectProvider<RunningJobs> running) {
		return new JobListenerPostProcessor(running);
	}

	@Bean
	@ConditionalOnMissingBean(name = "lifecycleBatchJobs")
	BatchJobsComponent lifecycleBatchJobs(LifecycleManager manager, RunningJobs running, LifecycleBatchProperties batch,
			ObjectProvider<JobRepository> repository, ObjectProvider<JobOperator> operator,
			ObjectProvider<InternalHooks> hooks, ApplicationContext context) {
		JobThread.resolve(hooks.getIfAvailable(InternalHooks::new));
		StaleJobRecovery recovery = new StaleJobRecovery(batch.isRecover(), manager, repository, operator);
		RunnerLaunch launch = new RunnerLaunch(context, running);
		BatchJobsComponent component = new BatchJobsComponent(running, repository, operator, recovery, launch::pending);
		// It serves the jobs the application launches: like an adopted bean, it neither
		// holds back nor triggers the automatic completed shutdown of an application
		// whose finite work is done.
		manager.registerPassive(BatchJobsComponent.NAME,
				ComponentOptions.defaults()
					.withGracefulShutdown(BatchJobsComponent.DEFAULT_BUDGET)
					.withSupporting(true),
				component);
		return component;
	}

}
