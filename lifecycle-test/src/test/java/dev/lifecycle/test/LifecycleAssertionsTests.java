package dev.lifecycle.test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.lifecycle.test.LifecycleAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The report assertions pass on what a real shutdown's report and file say, fail with
 * what they say instead, and read the newest file through the codec that wrote it.
 */
class LifecycleAssertionsTests {

	@TempDir
	Path directory;

	@Test
	void aCleanShutdownsReportAndFileAreClean() throws Exception {
		Path marker = this.directory.resolve("orders.running");
		ShutdownReport report = shutDown(marker, List.of());

		assertThat(report).isClean()
			.hasExitCode(ExitCodes.CLEAN)
			.hasTrigger(ShutdownReason.SIGNAL, "signal")
			.hasNoFailedSteps()
			.hasNoUnfinishedWork()
			.hasFailedRequests(0)
			.hasComponents("jobs")
			.componentOutcome("jobs")
			.isEqualTo(Outcome.COMPLETED);
		assertThat(report).componentCut("jobs").isEmpty();
		assertThat(ShutdownReports.newest(marker)).isClean()
			.hasState(ShutdownRecord.State.COMPLETED)
			.hasExitCode(ExitCodes.CLEAN)
			.hasTrigger(ShutdownReason.SIGNAL, "signal")
			.hasNoFailedSteps()
			.hasNoUnfinishedWork()
			.hasFailedRequests(0)
			.componentOutcome("jobs")
			.isEqualTo(Outcome.COMPLETED);
		assertThat(ShutdownReports.all(marker)).hasSize(1);
	}

	@Test
	void unfinishedWorkIsInTheReportAndTheNewestFile() throws Exception {
		Path marker = this.directory.resolve("orders.running");
		shutDown(marker, List.of());
		// tag::report-file[]
		ShutdownReport report = shutDown(marker, List.of("job 'import' execution 7: STOPPED"));
		assertThat(report).isNotClean()
			.hasExitCode(ExitCodes.INCOMPLETE)
			.hasUnfinishedWork("jobs", "job 'import' execution 7: STOPPED");
		// the file the next start reads, as a test of a child JVM sees it
		assertThat(ShutdownReports.newest(marker)).hasState(ShutdownRecord.State.COMPLETED)
			.isNotClean()
			.hasExitCode(ExitCodes.INCOMPLETE)
			.hasUnfinishedWork("jobs", "job 'import' execution 7: STOPPED");
		// end::report-file[]
		assertThat(ShutdownReports.all(marker)).hasSize(2).first().satisfies((first) -> assertThat(first).isClean());
	}

	@Test
	void aFailedAssertionSaysWhatTheReportSays() throws Exception {
		Path marker = this.directory.resolve("orders.running");
		ShutdownReport report = shutDown(marker, List.of("job 'import' execution 7: STOPPED"));
		ShutdownRecord record = ShutdownReports.newest(marker);

		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(report).isClean())
			.withMessageContaining("Expected a clean shutdown")
			.withMessageContaining("exit code 75")
			.withMessageContaining("jobs: job 'import' execution 7: STOPPED");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(record).hasExitCode(0))
			.withMessageContaining("Expected exit code 0 but the report says 75");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(record).hasReason(ShutdownReason.REQUESTED))
			.withMessageContaining("reason=SIGNAL");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(report).hasFailedStep("backup"))
			.withMessageContaining("Expected failed step 'backup' but the failed steps were []");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(record).componentOutcome("web"))
			.withMessageContaining("Expected component 'web' in the report but it has only [jobs]");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(report).hasUnfinishedWork("jobs", "job 'export' execution 8: STOPPED"))
			.withMessageContaining("Expected unfinished work 'job 'export' execution 8: STOPPED' of component 'jobs'");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat((ShutdownReport) null).isClean())
			.withMessageContaining("Expecting actual not to be null");
	}

	@Test
	void readingFailsWhenThereIsNoReportOrTheFileIsNotOne() throws Exception {
		Path marker = this.directory.resolve("orders.running");
		assertThatIllegalStateException().isThrownBy(() -> ShutdownReports.newest(marker))
			.withMessageContaining("No shutdown report next to the run marker " + marker);
		assertThat(ShutdownReports.all(marker)).isEmpty();
		Files.writeString(this.directory.resolve("orders.shutdown-000000000001.json"), "{\"token\": \"hunter2\"}");
		assertThatIllegalArgumentException().isThrownBy(() -> ShutdownReports.newest(marker))
			.withMessageContaining("not a shutdown report")
			.withMessageNotContaining("hunter2");
	}

	/** One engine's run and shutdown on this marker, as a first SIGTERM would end it. */
	private static ShutdownReport shutDown(Path marker, List<String> unfinished) throws InterruptedException {
		LifecycleManager manager = LifecycleManager.builder("orders")
			.runMarker(marker)
			.globalShutdownTimeout(Duration.ofSeconds(20))
			.build();
		manager.registerPassive("jobs", ComponentOptions.defaults(), (handle) -> handle.unfinishedWork(unfinished));
		manager.start();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		return manager.awaitTermination();
	}

}
