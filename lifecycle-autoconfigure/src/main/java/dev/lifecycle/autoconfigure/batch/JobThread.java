package dev.lifecycle.autoconfigure.batch;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.batch.core.job.AbstractJob;
import org.springframework.batch.core.job.JobExecution;

/**
 * Where a thread is in Spring Batch's jobs: how many {@link AbstractJob#execute(JobExecution)}
 * frames its stack holds. A job's thread has returned once it holds fewer than when the job began;
 * the repository's status cannot tell, because a stop writes {@code STOPPED} before the job's
 * thread has written its end. The frame is resolved once at start and a miss is logged.
 */
final class JobThread {

	private static final Log logger = LogFactory.getLog(JobThread.class);

	private static final String CLASS = AbstractJob.class.getName();

	private static final String METHOD = "execute";

	private JobThread() {
	}

	/** Checks once that the watched frame exists; warns when it does not. */
	static boolean resolve() {
		try {
			AbstractJob.class.getMethod(METHOD, JobExecution.class);
			return true;
		}
		catch (NoSuchMethodException ex) {
			logger.warn("Lifecycle: " + CLASS + "." + METHOD + "(JobExecution) not found in this Spring Batch; the"
					+ " drain takes a job's afterJob for its end and may close the DataSource before the job has"
					+ " written its end");
			return false;
		}
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
