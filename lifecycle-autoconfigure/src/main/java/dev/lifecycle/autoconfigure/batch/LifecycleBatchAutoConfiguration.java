package dev.lifecycle.autoconfigure.batch;

import java.nio.file.Path;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.ManagerSettings;
import dev.lifecycle.autoconfigure.component.LifecycleComponentAutoConfiguration;
import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.LifecycleManager;
import org.jspecify.annotations.Nullable;

import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

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
	RunningJobs lifecycleBatchRunningJobs(LifecycleManagerProperties properties, Environment environment,
			ObjectProvider<JobRepository> repository) {
		return new RunningJobs(owner(properties, environment), repository);
	}

	@Bean
	static JobListenerPostProcessor lifecycleBatchJobListenerPostProcessor(ObjectProvider<RunningJobs> running) {
		return new JobListenerPostProcessor(running);
	}

	@Bean
	@ConditionalOnMissingBean(name = "lifecycleBatchJobs")
	BatchJobsComponent lifecycleBatchJobs(LifecycleManager manager, RunningJobs running, LifecycleBatchProperties batch,
			LifecycleManagerProperties properties, Environment environment, ObjectProvider<JobRepository> repository,
			ObjectProvider<JobOperator> operator, ObjectProvider<InternalHooks> hooks) {
		JobThread.resolve(hooks.getIfAvailable(InternalHooks::new));
		StaleJobRecovery recovery = new StaleJobRecovery(batch.isRecover(), owner(properties, environment), manager,
				repository, operator);
		BatchJobsComponent component = new BatchJobsComponent(running, operator, recovery);
		// It serves the jobs the application launches: like an adopted bean, it neither
		// holds back nor
		// triggers the automatic completed shutdown of an application whose finite work
		// is done.
		manager.registerPassive(BatchJobsComponent.NAME,
				ComponentOptions.defaults()
					.withGracefulShutdown(BatchJobsComponent.DEFAULT_BUDGET)
					.withSupporting(true),
				component);
		return component;
	}

	/**
	 * This instance's identity: its run marker, which the next process of this instance
	 * finds.
	 */
	private static @Nullable String owner(LifecycleManagerProperties properties, Environment environment) {
		Path marker = ManagerSettings.of(properties, environment).runMarker();
		return (marker != null) ? marker.toAbsolutePath().normalize().toString() : null;
	}

}
