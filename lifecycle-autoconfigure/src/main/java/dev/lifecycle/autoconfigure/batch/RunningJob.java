package dev.lifecycle.autoconfigure.batch;

import org.springframework.batch.core.job.JobExecution;

/**
 * One job execution running in this process: the execution its thread works on (so its
 * status is the job's own, not the repository's), that thread, and how deep the thread
 * was in jobs when it began this one, so that a job run inside another job is told apart.
 */
final class RunningJob {

	private final JobExecution execution;

	private final Thread thread;

	private final int depth;

	private volatile boolean afterJob;

	RunningJob(JobExecution execution, Thread thread, int depth) {
		this.execution = execution;
		this.thread = thread;
		this.depth = depth;
	}

	JobExecution execution() {
		return this.execution;
	}

	Thread thread() {
		return this.thread;
	}

	void afterJob() {
		this.afterJob = true;
	}

	/**
	 * Whether the job has reached its {@code afterJob}: its steps are done and its status
	 * is its end; a stop now could only rewrite that end.
	 */
	boolean ending() {
		return this.afterJob;
	}

	/**
	 * Whether the job's thread has returned from the job: it has run the job's listeners
	 * and left the job's {@code execute}, where the execution's end is written. Without a
	 * frame to watch (the hook missed), the listeners' end is taken for it.
	 */
	boolean returned() {
		if (!this.afterJob) {
			return !this.thread.isAlive();
		}
		if (this.depth == 0 || !this.thread.isAlive()) {
			return true;
		}
		return JobThread.depth(this.thread.getStackTrace()) < this.depth;
	}

	/**
	 * For the report and the log: the job, its execution and its status as the job's
	 * thread sees it.
	 */
	String describe() {
		return describe(this.execution.getStatus());
	}

	/** For the report and the log: the job, its execution and the given status. */
	String describe(Object status) {
		return "job '" + this.execution.getJobInstance().getJobName() + "' execution " + this.execution.getId() + ": "
				+ status;
	}

}
