package dev.lifecycle.autoconfigure.batch;

import dev.lifecycle.autoconfigure.InternalHooks;

import org.springframework.batch.core.job.AbstractJob;
import org.springframework.batch.core.job.JobExecution;

/**
 * Where a thread is in Spring Batch's jobs: how many
 * {@link AbstractJob#execute(JobExecution)} frames its stack holds. A job's thread has
 * returned once it holds fewer than when the job began; the repository's status cannot
 * tell, because a stop writes {@code STOPPED} before the job's thread has written its
 * end. The frame is a hook resolved once, when the jobs' component is created
 * ({@link #HOOK}).
 */
final class JobThread {

	static final InternalHooks.Point HOOK = new InternalHooks.Point("batch.job-frame",
			"Spring Batch's AbstractJob.execute(JobExecution), looked for in the stacks of the jobs' threads",
			"waiting for a stopped job's thread to return before the infrastructure stops",
			"The drain takes a job's afterJob for its end and may close the DataSource before the job has "
					+ "written its end. Use the Spring Batch version Spring Boot manages (6.0).");

	private static final String CLASS = AbstractJob.class.getName();

	private static final String METHOD = "execute";

	private JobThread() {
	}

	/** Checks once that the watched frame exists; a miss warns once. */
	static boolean resolve(InternalHooks hooks) {
		return hooks.resolve(HOOK, () -> AbstractJob.class.getMethod(METHOD, JobExecution.class)) != null;
	}

	static int depth(StackTraceElement[] stack) {
		int depth = 0;
		for (StackTraceElement frame : stack) {
			if (CLASS.equals(frame.getClassName()) && METHOD.equals(frame.getMethodName())) {
				depth++;
			}
		}
		return depth;
	}

}
