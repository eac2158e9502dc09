package dev.lifecycle.autoconfigure.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.PreviousRun;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.ShutdownSignal;
import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.ChildJvms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real JVM's records say what it did, whatever way its start ends: a start that fails
 * before, during or after the engine's start is a failed start, never a crash; a forced
 * exit during start-up is a forced exit; a second instance on the same marker does not
 * call the first one crashed; a damaged report does not stop a start. The next start is
 * read here by a manager over the same files, as the next process's would be.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class ProcessStartRecordsTests {

	private static final Duration START_TO_EXIT = Duration.ofSeconds(90);

	@RegisterExtension
	final ChildJvms jvms = new ChildJvms();

	@TempDir
	Path directory;

	@Test
	void aBeanConstructorThatThrowsIsAFailedStartOfTheRefreshNotACrash() throws Exception {
		ChildJvm failing = launch("failing", "--process-test.throwing-constructor=true");

		assertThat(failing.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.FAILURE);
		assertFailedStart("refresh", "the application context failed before Lifecycle started");
	}

	@Test
	void anUnknownComponentKeyFailsTheStartAndIsRecordedAsAFailedStart() throws Exception {
		ChildJvm failing = launch("misspelt", "--lifecycle.components.wroker.phase=3");

		assertThat(failing.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.FAILURE);
		assertThat(failing.log()).contains("wroker");
		assertFailedStart("refresh", "the application context failed before Lifecycle started");
	}

	@Test
	void aWebServerThatCannotCreateItsTempDirectoryIsAFailedStartOfTheRefresh() throws Exception {
		// A file where the JVM's temporary directory should be: Tomcat cannot make its
		// own in it.
		Path notADirectory = Files.writeString(this.directory.resolve("tmp-is-a-file"), "");
		ChildJvm failing = launchWithJvmOptions("tempdir", List.of("-Djava.io.tmpdir=" + notADirectory));

		assertThat(failing.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.FAILURE);
		assertThat(failing.log()).contains("Unable to create tempDir");
		assertFailedStart("refresh", "the application context failed before Lifecycle started");
	}

	@Test
	void aRefreshListenerThatThrowsIsAFailedStartOfTheRefresh() throws Exception {
		ChildJvm failing = launch("refresh", "--process-test.throwing-refresh-listener=true");

		assertThat(failing.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.FAILURE);
		assertFailedStart("refresh", "the application context's refresh failed after the components started");
	}

	@Test
	void aReadyListenerThatThrowsIsAFailedStartOfTheApplicationRun() throws Exception {
		ChildJvm failing = launch("ready", "--process-test.throwing-ready-listener=true");

		assertThat(failing.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.FAILURE);
		assertFailedStart("application-run",
				"the application's run failed after the refresh (a runner or a ready listener threw)");
	}

	@Test
	void aFailedStartWhoseBeansLeftNonDaemonThreadsRunningStillExitsOneWithItsRecord() throws Exception {
		// A scheduler started a worker thread that never ends, then a later bean's start
		// threw.
		ChildJvm failing = launch("stray", "--process-test.fail-start=true", "--process-test.stray-thread=true");

		assertThat(failing.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.FAILURE);
		assertThat(failing.log()).contains("Lifecycle: shutdown complete (clean=false, exitCode=1",
				"Lifecycle: the start failed and threads it started still hold the JVM", "stray-scheduler-worker");
		assertFailedStart("licenceCheck", "java.lang.IllegalStateException: licence expired");
	}

	@Test
	void aSignalDuringStartUpEndsTheRunCleanlyBeforeTheApplicationsRunnersAreCalled() throws Exception {
		ChildJvm starting = launch("signalled", "--process-test.pause-after-manager=5s", "--process-test.runner=true");
		starting.awaitLog("pause after manager: waiting", START_TO_EXIT);
		starting.signal(ShutdownSignal.TERM);

		assertThat(starting.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
		assertThat(starting.log())
			.contains("Lifecycle: the shutdown began during the start; the application's runners are not called")
			.doesNotContain("process-test: runner called");
		assertThat(nextStart().report().exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void aSecondSignalDuringStartUpIsRecordedAsAForcedExitNotACrash() throws Exception {
		ChildJvm starting = launch("forced", "--process-test.pause-after-manager=20s");
		starting.awaitLog("pause after manager: waiting", START_TO_EXIT);
		starting.signal(ShutdownSignal.TERM);
		starting.awaitLog("while the application starts", Duration.ofSeconds(20));
		starting.signal(ShutdownSignal.TERM);

		assertThat(starting.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.FORCED);
		PreviousRun previous = nextStart();
		assertThat(previous.summary()).contains("forced by a second signal: signal, ")
			.endsWith(", exit 128")
			.doesNotContain("SIGKILL");
		assertThat(previous.report().state()).isEqualTo(ShutdownRecord.State.FORCED);
	}

	@Test
	void aSecondInstanceOnTheSameRunMarkerDoesNotCallTheRunningFirstOneCrashed() throws Exception {
		ChildJvm first = start("first");
		String marker = Files.readString(ProcessTestApps.runMarker(this.directory));

		ChildJvm second = start("second");

		assertThat(second.log()).doesNotContain("ended without a shutdown", "previous process did not finish")
			.contains("belongs to a process that is still running", "lifecycle.run-marker.path");
		assertThat(ProcessTestApps.runMarker(this.directory)).hasContent(marker);
		second.signal(ShutdownSignal.TERM);
		assertThat(second.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
		assertThat(ProcessTestApps.runMarker(this.directory)).hasContent(marker);
		first.signal(ShutdownSignal.TERM);
		assertThat(first.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
		assertThat(ProcessTestApps.runMarker(this.directory)).doesNotExist();
	}

	@Test
	void aReportCutInsideAStringEscapeIsSkippedWithAWarnAndTheServiceStarts() throws Exception {
		Path torn = this.directory.resolve("marker.shutdown-000000000007.json");
		Files.writeString(torn, "{\n  \"schema\": \"dev.lifecycle/shutdown-report\",\n  \"version\": 1,\n"
				+ "  \"trigger\": {\"reason\": \"signal\", \"detail\": \"a \\");

		ChildJvm service = start("service");

		assertThat(service.log()).contains("Lifecycle: skipping " + torn.toAbsolutePath() + ": not valid JSON");
		service.signal(ShutdownSignal.TERM);
		assertThat(service.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
	}

	/**
	 * The run marker is gone, one report says the start failed, and the next start says
	 * so.
	 */
	private void assertFailedStart(String component, String detail) throws Exception {
		assertThat(ProcessTestApps.runMarker(this.directory)).doesNotExist();
		assertThat(reports()).singleElement();
		PreviousRun previous = nextStart();
		assertThat(previous.unclean()).isFalse();
		assertThat(previous.summary()).contains("): start-failed of '" + component + "', not clean, ")
			.endsWith(", exit 1");
		assertThat(previous.report().trigger())
			.isEqualTo(new ShutdownTrigger(ShutdownReason.START_FAILED, component, detail));
		assertThat(previous.report().exitCode()).isEqualTo(ExitCodes.FAILURE);
	}

	/**
	 * What the next start finds, read by a manager over the same files, which then ends
	 * cleanly.
	 */
	private PreviousRun nextStart() throws InterruptedException {
		LifecycleManager next = LifecycleManager.builder("process-test")
			.runMarker(ProcessTestApps.runMarker(this.directory))
			.build();
		PreviousRun previous = next.previousRun().orElseThrow();
		next.triggerShutdown(ShutdownReason.SIGNAL, "test");
		next.awaitTermination();
		return previous;
	}

	private List<Path> reports() {
		return ShutdownRecord.files(ProcessTestApps.runMarker(this.directory));
	}

	private ChildJvm launch(String name, String... arguments) throws IOException {
		return this.jvms.launch(ProcessTestApps.app(name, this.directory, arguments));
	}

	private ChildJvm launchWithJvmOptions(String name, List<String> jvmOptions, String... arguments)
			throws IOException {
		return this.jvms.launch(ProcessTestApps.app(name, this.directory, arguments).jvmOptions(jvmOptions));
	}

	private ChildJvm start(String name, String... arguments) throws IOException {
		return this.jvms.start(ProcessTestApps.app(name, this.directory, arguments));
	}

}
