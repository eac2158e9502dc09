package dev.lifecycle.batchtests;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownSignal;
import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.ChildJvms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static dev.lifecycle.test.LifecycleAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Batch job with the starter and no code beyond its job, cut at a restart by
 * real signals in the middle of its step, then relaunched with the same parameters
 * against the same job repository (an H2 file): the interrupted execution is left
 * restartable, the relaunch completes it, every item is written exactly once, and the
 * exit code, the report and the next start's log say what happened.
 */
class BatchRestartTests {

	private static final List<String> ALL_ITEMS = IntStream.rangeClosed(1, 60).mapToObj(String::valueOf).toList();

	@TempDir
	Path directory;

	@RegisterExtension
	final ChildJvms jvms = new ChildJvms();

	@Test
	void sigtermMidStepStopsTheJobBetweenChunksAndExitsIncomplete() throws Exception {
		// Its first two stop() calls throw the optimistic-locking failure a job's own
		// write causes.
		ChildJvm first = this.jvms.launch(BatchJob.run("first", this.directory, "--batch-test.stop-fails=2"));
		first.awaitLog("batch-test: wrote items 11 to 20");
		first.signal(ShutdownSignal.TERM);

		assertThat(first.awaitExit()).as(first.log()).isEqualTo(ExitCodes.INCOMPLETE);
		assertThat(first.log().split("batch-test: JobOperator.stop throws", -1)).as("stop() retried").hasSize(3);
		assertThat(BatchJob.statuses(this.directory)).containsExactly("STOPPED");
		assertChunksWrittenOnce(BatchJob.items(this.directory));
		assertThat(first.log()).contains("Lifecycle: stopping job 'importJob' execution 1")
			.contains(
					"Lifecycle: work left unfinished for a later run: batch-jobs: job 'importJob' execution 1: STOPPED")
			.contains("clean=false, exitCode=75");
		assertThat(BatchJob.report(this.directory)).hasExitCode(75)
			.hasUnfinishedWork("batch-jobs", "job 'importJob' execution 1: STOPPED");

		ChildJvm relaunch = this.jvms.launch(BatchJob.run("relaunch", this.directory));
		assertThat(relaunch.awaitExit()).as(relaunch.log()).isZero();
		assertThat(relaunch.log())
			.containsPattern("Lifecycle: previous shutdown \\(.*\\): signal, not clean, .*, exit 75")
			.doesNotContain("Lifecycle: recovered");
		assertThat(BatchJob.statuses(this.directory)).containsExactly("STOPPED", "COMPLETED");
		assertThat(BatchJob.items(this.directory)).isEqualTo(ALL_ITEMS);
	}

	@Test
	void sigkillMidStepIsRecoveredAtTheNextStartAndTheRelaunchCompletes() throws Exception {
		ChildJvm first = this.jvms.launch(BatchJob.run("first", this.directory));
		first.awaitLog("batch-test: wrote items 11 to 20");
		first.sigkill();

		assertThat(first.awaitExit()).isEqualTo(128 + 9);
		assertThat(BatchJob.statuses(this.directory)).containsExactly("STARTED");
		assertChunksWrittenOnce(BatchJob.items(this.directory));

		ChildJvm relaunch = this.jvms.launch(BatchJob.run("relaunch", this.directory));
		assertThat(relaunch.awaitExit()).as(relaunch.log()).isZero();
		assertThat(relaunch.log()).containsPattern("Lifecycle: previous run \\(.*\\) ended without a shutdown")
			.contains("Lifecycle: recovered 1 job execution(s) the previous run left running")
			.contains("job 'importJob' execution 1; a relaunch with the same parameters restarts them");
		assertThat(BatchJob.statuses(this.directory)).containsExactly("FAILED", "COMPLETED");
		assertThat(BatchJob.items(this.directory)).isEqualTo(ALL_ITEMS);
	}

	@Test
	void secondSigtermForcesTheExitAndTheNextStartRecoversTheJob() throws Exception {
		// Chunks of 1.5 s: the second signal lands while the first waits for the chunk in
		// progress.
		ChildJvm first = this.jvms.launch(BatchJob.run("first", this.directory, "--batch-test.item-time=150ms"));
		first.awaitLog("batch-test: wrote items 1 to 10");
		first.signal(ShutdownSignal.TERM);
		first.awaitLog("Lifecycle: stopping job 'importJob' execution 1");
		first.signal(ShutdownSignal.TERM);

		assertThat(first.awaitExit()).as(first.log()).isEqualTo(ExitCodes.FORCED);
		String cut = BatchJob.statuses(this.directory).get(0);
		assertThat(cut).isIn("STOPPING", "STOPPED", "STARTED", "FAILED");
		assertChunksWrittenOnce(BatchJob.items(this.directory));

		ChildJvm relaunch = this.jvms.launch(BatchJob.run("relaunch", this.directory));
		assertThat(relaunch.awaitExit()).as(relaunch.log()).isZero();
		assertThat(relaunch.log()).containsPattern("Lifecycle: previous shutdown \\(.*\\) forced by a second signal");
		assertThat(BatchJob.statuses(this.directory)).last().isEqualTo("COMPLETED");
		assertThat(BatchJob.items(this.directory)).isEqualTo(ALL_ITEMS);
	}

	@Test
	void chunkLongerThanTheBudgetIsNamedStillRunningAndTheRelaunchCompletesIt() throws Exception {
		// Chunks of 2 s against a budget of 0.5 s.
		ChildJvm first = this.jvms.launch(BatchJob.run("first", this.directory, "--batch-test.item-time=200ms",
				"--lifecycle.components.batch-jobs.graceful-shutdown=500ms"));
		first.awaitLog("batch-test: wrote items 1 to 10");
		first.signal(ShutdownSignal.TERM);

		assertThat(first.awaitExit()).as(first.log()).isEqualTo(ExitCodes.INCOMPLETE);
		assertThat(first.log()).contains(
				"Lifecycle: work left unfinished for a later run: batch-jobs: job 'importJob' execution 1: STARTED (still running)");
		assertThat(BatchJob.report(this.directory))
			.hasUnfinishedWork("batch-jobs", "job 'importJob' execution 1: STARTED (still running)")
			.componentOutcome("batch-jobs")
			.isEqualTo(Outcome.TIMEOUT);
		assertThat(BatchJob.statuses(this.directory)).singleElement().isNotEqualTo("COMPLETED");
		assertChunksWrittenOnce(BatchJob.items(this.directory));

		// Spring Batch's stop wrote the execution's end, so it is restartable without a
		// recovery.
		ChildJvm relaunch = this.jvms.launch(BatchJob.run("relaunch", this.directory));
		assertThat(relaunch.awaitExit()).as(relaunch.log()).isZero();
		assertThat(relaunch.log())
			.containsPattern("Lifecycle: previous shutdown \\(.*\\): signal, not clean, .*, exit 75");
		assertThat(BatchJob.statuses(this.directory)).last().isEqualTo("COMPLETED");
		assertThat(BatchJob.items(this.directory)).isEqualTo(ALL_ITEMS);
	}

	/**
	 * Whole chunks of ten, each item once, in order from the first: nothing
	 * half-committed, nothing twice.
	 */
	private static void assertChunksWrittenOnce(List<String> items) {
		assertThat(items).isNotEmpty().doesNotHaveDuplicates();
		assertThat(items.size() % 10).as("whole chunks").isZero();
		assertThat(items).isEqualTo(ALL_ITEMS.subList(0, items.size()));
	}

}
