package dev.lifecycle.autoconfigure.batch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.PassiveComponent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.launch.JobExecutionNotRunningException;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.launch.NoSuchJobExecutionException;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.OptimisticLockingFailureException;

/**
 * The job executions running in this process, as one standard component,
 * {@code batch-jobs}. At its start it runs the {@link StaleJobRecovery}. Told to stop, it
 * re-reads each running execution from the repository and asks the {@link JobOperator} to
 * stop only those the repository still shows running and whose job has not reached its
 * {@code afterJob} (a stop then could only rewrite an end already reached), again while
 * the repository answers with an optimistic-locking failure, which a job's own writes
 * cause; then waits until each job's thread has returned, so that every chunk in progress
 * commits and the job writes its end before anything it uses stops. Each job's end is
 * then read from the repository: one other than {@code COMPLETED}, or a job still running
 * when the budget ends, is unfinished work for the report; one that ends {@code FAILED}
 * makes the component die.
 */
final class BatchJobsComponent implements PassiveComponent {

	/**
	 * The component's name: its budget is
	 * {@code lifecycle.components.batch-jobs.graceful-shutdown}.
	 */
	static final String NAME = "batch-jobs";

	/**
	 * The default budget: room for a chunk in progress to commit, below Kubernetes'
	 * default grace.
	 */
	static final Duration DEFAULT_BUDGET = Duration.ofSeconds(20);

	private static final int STOP_ATTEMPTS = 10;

	private static final Duration STOP_RETRY = Duration.ofMillis(100);

	private static final Duration POLL = Duration.ofMillis(20);

	private static final Log logger = LogFactory.getLog(BatchJobsComponent.class);

	private final RunningJobs running;

	private final ObjectProvider<JobRepository> repository;

	private final ObjectProvider<JobOperator> operator;

	private final StaleJobRecovery recovery;

	private final Supplier<List<String>> pendingLaunches;

	/**
	 * @param pendingLaunches the jobs Spring Boot's runner has yet to launch
	 * ({@link RunnerLaunch})
	 */
	BatchJobsComponent(RunningJobs running, ObjectProvider<JobRepository> repository,
			ObjectProvider<JobOperator> operator, StaleJobRecovery recovery, Supplier<List<String>> pendingLaunches) {
		this.running = running;
		this.pendingLaunches = pendingLaunches;
		this.repository = repository;
		this.operator = operator;
		this.recovery = recovery;
	}

	@Override
	public void start(ComponentHandle handle) {
		this.recovery.run();
	}

	@Override
	public void stop(ComponentHandle handle) throws Exception {
		this.running.close();
		List<RunningJob> jobs = this.running.snapshot();
		if (jobs.isEmpty()) {
			List<String> neverRan = this.pendingLaunches.get()
				.stream()
				.map((job) -> "job '" + job + "' never ran: the start was cut before Spring Boot's runner launched it")
				.toList();
			if (!neverRan.isEmpty()) {
				handle.unfinishedWork(neverRan);
				throw new IllegalStateException(
						"Batch job(s) not run, the start was cut: " + String.join("; ", neverRan));
			}
			return;
		}
		// Until each has returned, each is unfinished: what the report says if the budget
		// ends first.
		handle.unfinishedWork(jobs.stream().map((job) -> job.describe() + " (still running)").toList());
		JobOperator jobOperator = this.operator.getIfAvailable();
		JobRepository jobRepository = this.repository.getIfAvailable();
		for (RunningJob job : jobs) {
			if (jobOperator == null) {
				logger.warn("Lifecycle: no JobOperator bean; cannot stop " + job.describe());
				continue;
			}
			BatchStatus stored = stored(jobRepository, job);
			if (!shouldStop(job, stored)) {
				logger.info("Lifecycle: not stopping " + job.describe(stored)
						+ ((stored != null && stored.isRunning()) ? " (its steps are done; it is ending)" : "")
						+ "; waiting for it to return");
				continue;
			}
			stop(jobOperator, job);
		}
		List<RunningJob> waiting = new ArrayList<>(jobs);
		List<String> unfinished = new ArrayList<>();
		List<String> failed = new ArrayList<>();
		while (!waiting.isEmpty()) {
			for (RunningJob job : List.copyOf(waiting)) {
				if (!job.returned()) {
					continue;
				}
				waiting.remove(job);
				BatchStatus stored = stored(jobRepository, job);
				BatchStatus status = (stored != null) ? stored : job.execution().getStatus();
				logger.info("Lifecycle: " + job.describe(status) + " ended"
						+ ((status == BatchStatus.STOPPED) ? "; a relaunch with the same parameters restarts it" : ""));
				if (status == BatchStatus.FAILED) {
					failed.add(job.describe(status));
				}
				if (status != BatchStatus.COMPLETED) {
					unfinished.add(job.describe(status));
				}
				List<String> now = new ArrayList<>(unfinished);
				waiting.forEach((left) -> now.add(left.describe() + " (still running)"));
				handle.unfinishedWork(now);
			}
			if (!waiting.isEmpty()) {
				Thread.sleep(POLL.toMillis());
			}
		}
		if (!failed.isEmpty()) {
			throw new IllegalStateException("Batch job failed while stopping: " + String.join("; ", failed));
		}
	}

	/**
	 * Whether to send the stop: only while the repository still shows the execution
	 * running (or cannot be read) and its job has not reached its {@code afterJob}.
	 */
	static boolean shouldStop(RunningJob job, @Nullable BatchStatus stored) {
		return !job.ending() && (stored == null || stored.isRunning());
	}

	/**
	 * The execution's status as the repository has it now, {@code null} if it cannot be
	 * read.
	 */
	private static @Nullable BatchStatus stored(@Nullable JobRepository jobRepository, RunningJob job) {
		if (jobRepository == null) {
			return null;
		}
		try {
			JobExecution execution = jobRepository.getJobExecution(job.execution().getId());
			return (execution != null) ? execution.getStatus() : null;
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: could not read " + job.describe() + " from the job repository (" + ex + ")");
			return null;
		}
	}

	private void stop(JobOperator jobOperator, RunningJob job) throws InterruptedException {
		long id = job.execution().getId();
		for (int attempt = 1;; attempt++) {
			try {
				jobOperator.stop(id);
				logger.info("Lifecycle: stopping " + job.describe());
				return;
			}
			catch (JobExecutionNotRunningException | NoSuchJobExecutionException ex) {
				// Already ending on its own: waiting for its thread is all that is left.
				return;
			}
			catch (OptimisticLockingFailureException ex) {
				if (attempt == STOP_ATTEMPTS) {
					logger.warn("Lifecycle: could not stop " + job.describe() + " after " + attempt + " attempts (" + ex
							+ "); waiting for it within the budget");
					return;
				}
				Thread.sleep(STOP_RETRY.toMillis() * attempt);
			}
			catch (RuntimeException ex) {
				logger.warn("Lifecycle: stopping " + job.describe() + " failed (" + ex
						+ "); waiting for it within the budget");
				return;
			}
		}
	}

	@Override
	public Set<Thread> threads() {
		Set<Thread> threads = new LinkedHashSet<>();
		this.running.snapshot().forEach((job) -> threads.add(job.thread()));
		return threads;
	}

}
