package dev.lifecycle.autoconfigure.batch;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of Spring Batch jobs at a restart, under the {@code lifecycle.batch}
 * prefix. The budget of the jobs' drain is the component's own:
 * {@code lifecycle.components.batch-jobs.graceful-shutdown}.
 */
@ConfigurationProperties("lifecycle.batch")
public class LifecycleBatchProperties {

	/**
	 * Whether, after a previous run that ended without a shutdown (SIGKILL, OOM kill,
	 * crash), the job executions it left running are recovered through
	 * JobOperator.recover at start, so that a relaunch with the same parameters restarts
	 * them. Only executions stamped with the instance identity the previous run wrote
	 * into this process's run marker are touched; other replicas' are left alone. Turn it
	 * off when another process may still run them.
	 */
	private boolean recover = true;

	public boolean isRecover() {
		return this.recover;
	}

	public void setRecover(boolean recover) {
		this.recover = recover;
	}

}
