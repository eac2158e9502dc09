package dev.lifecycle.autoconfigure.batch;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.batch.core.job.AbstractJob;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.listener.JobExecutionListener;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;

/**
 * The job executions running in this process, told by two listeners every
 * {@link AbstractJob} bean carries: each execution from the first of its
 * {@code beforeJob} callbacks ({@link #first()}, ordered before the application's own
 * listeners, so a signal during theirs finds the job running) until its thread has
 * returned from the job; and the first of its {@code afterJob} callbacks (this one,
 * unordered and registered last, so called first), from which the job's steps are done
 * and its status is its end. Each execution is stamped with this process's identity
 * ({@code LifecycleManager.instance()}) in its execution context, saved at once, so that
 * the next start of the same run marker knows which stale executions were its
 * predecessor's.
 */
final class RunningJobs implements JobExecutionListener {

	/**
	 * The execution-context key holding the identity of the instance that launched an
	 * execution.
	 */
	static final String OWNER_KEY = "lifecycle.owner";

	private static final Log logger = LogFactory.getLog(RunningJobs.class);

	private final Map<Long, RunningJob> running = new ConcurrentHashMap<>();

	private final Supplier<@Nullable String> owner;

	private final ObjectProvider<JobRepository> repository;

	private final First first = new First();

	/** Whether an execution has begun in this process. */
	private volatile boolean began;

	/**
	 * Set once the jobs' component has stopped: a job launched later could not be
	 * drained.
	 */
	private volatile boolean closed;

	/**
	 * @param owner this process's identity, or {@code null} while it holds no run marker:
	 * then no execution is stamped and none is ever recovered
	 */
	RunningJobs(Supplier<@Nullable String> owner, ObjectProvider<JobRepository> repository) {
		this.owner = owner;
		this.repository = repository;
	}

	/** The listener that sees each execution before the application's listeners do. */
	JobExecutionListener first() {
		return this.first;
	}

	/** Whether an execution has begun in this process. */
	boolean began() {
		return this.began;
	}

	/**
	 * From now on, an execution that begins fails before its first step: nothing would
	 * wait for it, and what it uses is stopping.
	 */
	void close() {
		this.closed = true;
	}

	private void began(JobExecution execution) {
		if (this.closed) {
			// Thrown before any step: Spring Batch ends the execution FAILED, which a
			// relaunch restarts.
			throw new IllegalStateException("Lifecycle: job '" + execution.getJobInstance().getJobName()
					+ "' launched after the batch jobs were stopped for the shutdown; not run");
		}
		this.began = true;
		this.running.values().removeIf(RunningJob::returned);
		this.running.put(execution.getId(), new RunningJob(execution, Thread.currentThread(),
				JobThread.depth(Thread.currentThread().getStackTrace())));
		String identity = this.owner.get();
		if (identity == null) {
			return;
		}
		execution.getExecutionContext().putString(OWNER_KEY, identity);
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
	 * Ordered first among a job's listeners: its {@code beforeJob} comes before the
	 * application's.
	 */
	private final class First implements JobExecutionListener, Ordered {

		@Override
		public void beforeJob(JobExecution execution) {
			began(execution);
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
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
