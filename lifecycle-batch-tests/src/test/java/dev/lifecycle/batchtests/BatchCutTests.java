package dev.lifecycle.batchtests;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.ShutdownSignal;
import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.ChildJvms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static dev.lifecycle.test.LifecycleAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A SIGTERM at the edges of a job, where its status in the repository, its thread and the
 * end may disagree: in the application's {@code beforeJob} listener (the job has not
 * begun its steps, the repository says {@code STARTED}), in its last step's
 * {@code afterStep} listener (every item is written, the job has not ended), in its
 * {@code afterJob} listener (its steps are done and the repository says
 * {@code COMPLETED}, but its thread has not returned); and during the start, before
 * Spring Boot's runner has launched the job. The exit code, the repository, the report
 * and the next start's summary say what the job's end really is.
 */
class BatchCutTests {

	private static final List<String> ALL_ITEMS = IntStream.rangeClosed(1, 60).mapToObj(String::valueOf).toList();

	@TempDir
	Path directory;

	@RegisterExtension
	final ChildJvms jvms = new ChildJvms();

	@Test
	void sigtermDuringABeforeJobListenerStopsTheJobBeforeItsFirstChunkAndExitsIncomplete() throws Exception {
		ChildJvm first = this.jvms.launch(BatchJob.run("first", this.directory, "--batch-test.before-job=2s"));
		first.awaitLog("batch-test: before job");
		first.signal(ShutdownSignal.TERM);

		assertThat(first.awaitExit()).as(first.log()).isEqualTo(ExitCodes.INCOMPLETE);
		assertThat(BatchJob.statuses(this.directory)).containsExactly("STOPPED");
		assertThat(first.log()).contains("Lifecycle: stopping job 'importJob' execution 1")
			.contains(
					"Lifecycle: work left unfinished for a later run: batch-jobs: job 'importJob' execution 1: STOPPED")
			.contains("clean=false");
		assertThat(BatchJob.report(this.directory)).hasUnfinishedWork("batch-jobs",
				"job 'importJob' execution 1: STOPPED");

		ChildJvm relaunch = this.jvms.launch(BatchJob.run("relaunch", this.directory));
		assertThat(relaunch.awaitExit()).as(relaunch.log()).isZero();
		assertThat(relaunch.log()).containsPattern(
				"Lifecycle: previous shutdown \\(.*\\): signal, not clean, .*, exit " + ExitCodes.INCOMPLETE
						+ ", 1 unfinished for a later run \\(batch-jobs: job 'importJob' execution 1: STOPPED\\)");
		assertThat(BatchJob.statuses(this.directory)).containsExactly("STOPPED", "COMPLETED");
		assertThat(BatchJob.items(this.directory)).isEqualTo(ALL_ITEMS);
	}

	@Test
	void sigtermDuringTheStartBeforeSpringBootsRunnerLaunchesTheJobIsAFailedStartThatNamesTheJob() throws Exception {
		ChildJvm first = this.jvms.launch(BatchJob.run("first", this.directory, "--batch-test.start-delay=3s"));
		first.awaitLog("batch-test: starting slowly");
		first.signal(ShutdownSignal.TERM);

		assertThat(first.awaitExit()).as(first.log()).isEqualTo(ExitCodes.FAILURE);
		String neverRan = "batch-jobs: job 'importJob' never ran: the start was cut before Spring Boot's runner launched it";
		assertThat(first.log()).contains("Lifecycle: work left unfinished for a later run: " + neverRan)
			.contains("clean=false");
		assertThat(BatchJob.report(this.directory)).hasUnfinishedWork("batch-jobs",
				"job 'importJob' never ran: the start was cut before Spring Boot's runner launched it");
		assertThat(first.log())
			.contains("Lifecycle: the shutdown began during the start; the application's runners are not called");
		assertThat(BatchJob.statuses(this.directory)).isEmpty();

		ChildJvm relaunch = this.jvms.launch(BatchJob.run("relaunch", this.directory));
		assertThat(relaunch.awaitExit()).as(relaunch.log()).isZero();
		assertThat(BatchJob.statuses(this.directory)).containsExactly("COMPLETED");
		assertThat(BatchJob.items(this.directory)).isEqualTo(ALL_ITEMS);
	}

	/**
	 * Every item is written, but the job has not ended: the stop lands, and the
	 * repository says {@code STOPPED}. The record says what the repository says
	 * (incomplete, exit code for a retry), and the retry completes the job without
	 * reading or writing an item again.
	 */
	@Test
	void sigtermDuringTheLastStepsAfterStepListenerEndsTheJobStoppedAndTheRelaunchWritesNothingTwice()
			throws Exception {
		ChildJvm first = this.jvms
			.launch(BatchJob.run("first", this.directory, "--batch-test.items=20", "--batch-test.after-step=2s"));
		first.awaitLog("batch-test: after step, 20 items written");
		first.signal(ShutdownSignal.TERM);

		assertThat(first.awaitExit()).as(first.log()).isEqualTo(ExitCodes.INCOMPLETE);
		assertThat(BatchJob.statuses(this.directory)).containsExactly("STOPPED");
		assertThat(BatchJob.items(this.directory)).isEqualTo(ALL_ITEMS.subList(0, 20));
		assertThat(BatchJob.report(this.directory)).hasUnfinishedWork("batch-jobs",
				"job 'importJob' execution 1: STOPPED");

		ChildJvm relaunch = this.jvms.launch(BatchJob.run("relaunch", this.directory, "--batch-test.items=20"));
		assertThat(relaunch.awaitExit()).as(relaunch.log()).isZero();
		assertThat(BatchJob.statuses(this.directory)).containsExactly("STOPPED", "COMPLETED");
		assertThat(BatchJob.items(this.directory)).isEqualTo(ALL_ITEMS.subList(0, 20));
		assertThat(relaunch.log()).doesNotContain("batch-test: wrote items");
	}

	@Test
	void sigtermDuringAnAfterJobListenerDoesNotStopTheCompletedJobAndExitsClean() throws Exception {
		ChildJvm run = this.jvms
			.launch(BatchJob.run("run", this.directory, "--batch-test.items=20", "--batch-test.after-job=2s"));
		run.awaitLog("batch-test: after job COMPLETED");
		run.signal(ShutdownSignal.TERM);

		assertThat(run.awaitExit()).as(run.log()).isEqualTo(ExitCodes.CLEAN);
		assertThat(BatchJob.statuses(this.directory)).containsExactly("COMPLETED");
		assertThat(BatchJob.items(this.directory)).isEqualTo(ALL_ITEMS.subList(0, 20));
		assertThat(run.log()).contains("Lifecycle: not stopping job 'importJob' execution 1: COMPLETED")
			.doesNotContain("Lifecycle: stopping job")
			.contains("clean=true");
	}

}
