package dev.lifecycle.autoconfigure.batch;

import org.junit.jupiter.api.Test;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.parameters.JobParameters;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stop is sent by the repository's truth: only to an execution the repository still
 * shows running (or cannot tell about) and whose job has not reached its
 * {@code afterJob}.
 */
class StopDecisionTests {

	@Test
	void onlyAnExecutionTheRepositoryShowsRunningAndWhoseJobIsNotEndingIsStopped() {
		RunningJob running = job();
		assertThat(BatchJobsComponent.shouldStop(running, BatchStatus.STARTED)).isTrue();
		assertThat(BatchJobsComponent.shouldStop(running, BatchStatus.STARTING)).isTrue();
		assertThat(BatchJobsComponent.shouldStop(running, null)).isTrue();
		assertThat(BatchJobsComponent.shouldStop(running, BatchStatus.COMPLETED)).isFalse();
		assertThat(BatchJobsComponent.shouldStop(running, BatchStatus.STOPPED)).isFalse();
		assertThat(BatchJobsComponent.shouldStop(running, BatchStatus.FAILED)).isFalse();
		RunningJob ending = job();
		ending.afterJob();
		assertThat(BatchJobsComponent.shouldStop(ending, BatchStatus.STARTED)).isFalse();
	}

	private static RunningJob job() {
		JobExecution execution = new JobExecution(1L, new JobInstance(1L, "importJob"), new JobParameters());
		execution.setStatus(BatchStatus.STARTED);
		return new RunningJob(execution, Thread.currentThread(), 0);
	}

}
