package dev.lifecycle.autoconfigure.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.PreviousRun;
import dev.lifecycle.core.ShutdownRecord;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.ObjectProvider;

/**
 * After a previous run that ended without a shutdown, or whose shutdown cut the
 * {@code batch-jobs} component at its budget (the process then exited under the jobs),
 * marks the job executions it left running as failed through
 * {@link JobOperator#recover(JobExecution)}, so that a relaunch with the same parameters
 * restarts them instead of failing with {@code JobExecutionAlreadyRunningException}. Safe
 * only because that run is known dead (it left this process's run marker or its report
 * behind) and the executions are known to be its own: stamped with the identity that run
 * wrote into its marker ({@link PreviousRun#instance()}), which names one process of one
 * host, never a path other replicas share. Executions stamped by any other process, or by
 * none, are named in one line and left alone, since another process may still be running
 * them. Runs before any job launches: at the component's start, before Spring Boot's
 * runners.
 */
final class StaleJobRecovery {

	private static final Log logger = LogFactory.getLog(StaleJobRecovery.class);

	private final boolean enabled;

	private final LifecycleManager manager;

	private final ObjectProvider<JobRepository> repository;

	private final ObjectProvider<JobOperator> operator;

	StaleJobRecovery(boolean enabled, LifecycleManager manager, ObjectProvider<JobRepository> repository,
			ObjectProvider<JobOperator> operator) {
		this.enabled = enabled;
		this.manager = manager;
		this.repository = repository;
		this.operator = operator;
	}

	/**
	 * Recovers what the previous run left, if it ended without a shutdown; logs what it
	 * did.
	 */
	void run() {
		Optional<PreviousRun> previous = this.manager.previousRun();
		if (previous.isEmpty() || !(previous.get().unclean() || jobsCut(previous.get()))) {
			return;
		}
		JobRepository jobRepository = this.repository.getIfAvailable();
		JobOperator jobOperator = this.operator.getIfAvailable();
		String owner = previous.get().instance();
		if (jobRepository == null || jobOperator == null) {
			return;
		}
		List<String> recovered = new ArrayList<>();
		List<String> foreign = new ArrayList<>();
		for (String jobName : jobRepository.getJobNames()) {
			for (JobExecution execution : jobRepository.findRunningJobExecutions(jobName)) {
				String name = "job '" + jobName + "' execution " + execution.getId();
				if (owner == null
						|| !owner.equals(execution.getExecutionContext().getString(RunningJobs.OWNER_KEY, ""))) {
					foreign.add(name);
				}
				else if (!this.enabled) {
					foreign.add(name + " (lifecycle.batch.recover=false)");
				}
				else {
					try {
						jobOperator.recover(execution);
						recovered.add(name);
					}
					catch (RuntimeException ex) {
						logger.warn("Lifecycle: could not recover stale " + name + ": " + ex);
					}
				}
			}
		}
		if (!recovered.isEmpty()) {
			logger.warn("Lifecycle: recovered " + recovered.size() + " job execution(s) the previous run left running ("
					+ previous.get().summary() + "): " + String.join(", ", recovered)
					+ "; a relaunch with the same parameters restarts them");
		}
		if (!foreign.isEmpty()) {
			// Another replica's running jobs are the normal case of a shared repository.
			logger.info("Lifecycle: left " + foreign.size() + " running job execution(s) alone, not recovered: "
					+ String.join(", ", foreign) + "; they are not the previous run's ("
					+ ((owner != null) ? "instance " + owner : "its run marker names no instance")
					+ "); recover them with JobOperator.recover once sure no process runs them");
		}
	}

	/**
	 * Whether the previous shutdown's report says its budget cut this component while
	 * jobs ran.
	 */
	private static boolean jobsCut(PreviousRun previous) {
		ShutdownRecord report = previous.report();
		return report != null && report.component(BatchJobsComponent.NAME)
			.map((entry) -> entry.outcome() == Outcome.TIMEOUT)
			.orElse(false);
	}

}
