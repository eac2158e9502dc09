package dev.lifecycle.autoconfigure.batch;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.batch.core.job.AbstractJob;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.listener.JobExecutionListener;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The job executions running in this process, told by a listener every
 * {@link AbstractJob} bean carries: each one from its {@code beforeJob} until its thread
 * has returned from the job. Each execution is stamped with this instance's identity in
 * its execution context, saved at once, so that the next start knows which stale
 * executions were this instance's.
 */
final class RunningJobs implements JobExecutionListener {

	/**
	 * The execution-context key holding the identity of the instance that launched an
	 * execution.
	 */
	static final String OWNER_KEY = "lifecycle.owner";

	private static final Log logger = LogFactory.getLog(RunningJobs.class);

	private final Map<Long, RunningJob> running = new ConcurrentHashMap<>();

	private final @Nullable String owner;

	private final ObjectProvider<JobRepository> repository;

	/**
	 * @param owner this instance's identity (its run marker), or {@code null} without
	 * one: then no execution is stamped and none is ever recovered
	 */
	RunningJobs(@Nullable String owner, ObjectProvider<JobRepository> repository) {
		this.owner = owner;
		this.repository = repository;
	}

	@Override
	public void beforeJob(JobExecution execution) {
		this.running.values().removeIf(RunningJob::returned);
		this.running.put(execution.getId(), new RunningJob(execution, Thread.currentThread(),
				JobThread.depth(Thread.currentThread().getStackTrace())));
		if (this.owner == null) {
			return;
		}
		execution.getExecutionContext().putString(OWNER_KEY, this.owner);
		JobRepository jobRepository = this.repository.getIfAvailable();
		if (jobRepository == null) {
			return;
		}
		try {
			// Saved now, not at the first step's end: a kill in the first step must leave
			// it behind.
			jobRepository.updateExecutionContext(execution);
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: could not record the owner of job execution " + execution.getId()
					+ "; if this process is killed, the next start will not recover it (" + ex + ")");
		}
	}

	@Override
	public void afterJob(JobExecution execution) {
		// Not forgotten yet: the job's thread writes the execution's end after this
		// callback.
		RunningJob job = this.running.get(execution.getId());
		if (job != null) {
			job.afterJob();
		}
	}

	/**
	 * The executions running now, oldest first; those whose thread has returned are
	 * forgotten.
	 */
	List<RunningJob> snapshot() {
		this.running.values().removeIf(RunningJob::returned);
		return this.running.values()
			.stream()
			.sorted((a, b) -> Long.compare(a.execution().getId(), b.execution().getId()))
			.toList();
	}

}
