package dev.lifecycle.autoconfigure.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lifecycle.core.ExitCodes;
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
 * What a real JVM leaves on disk for the next start: a training run for the JDK AOT cache
 * leaves nothing, and a start that fails after its components started leaves a report of
 * a failed start that the next start summarises.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class ProcessRecordsTests {

	private static final Duration START_TO_EXIT = Duration.ofSeconds(60);

	private static final Pattern UNCLEAN_PREVIOUS_RUN = Pattern
		.compile("lifecycle_shutdown_initiated_total\\{(?=[^}]*trigger_component=\"previous-run\")"
				+ "(?=[^}]*trigger_reason=\"unclean\")[^}]*} (\\S+)");

	@RegisterExtension
	final ChildJvms jvms = new ChildJvms();

	@TempDir
	Path directory;

	@Test
	void aTrainingRunThatExitsOnRefreshLeavesNothingAndTheNextStartSeesNoUncleanPreviousRun() throws Exception {
		ChildJvm training = this.jvms.launch(
				ProcessTestApps.app("training", this.directory).jvmOptions(List.of("-Dspring.context.exit=onRefresh")));

		assertThat(training.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
		assertThat(training.log())
			.contains("Lifecycle: spring.context.exit=onRefresh; this run writes no run marker or shutdown report")
			.doesNotContain("Lifecycle: started", "Lifecycle: shutdown initiated", "worker: running");
		assertThat(ProcessTestApps.runMarker(this.directory)).doesNotExist();
		assertThat(reports()).isEmpty();

		ChildJvm service = start("service");
		assertThat(service.log()).doesNotContain("previous process did not finish", "previous run (",
				"previous shutdown (");
		assertThat(uncleanPreviousRuns(service)).isZero();
		service.signal(ShutdownSignal.TERM);
		assertThat(service.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void aBeanWhoseStartThrowsAfterTheComponentsStartedExitsOneWithAReportOfAFailedStart() throws Exception {
		ChildJvm failing = this.jvms.launch(ProcessTestApps.app("failing", this.directory,
				"--process-test.fail-start=true", "--process-test.drain=200ms"));

		assertThat(failing.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.FAILURE);
		String log = failing.log();
		assertThat(log).contains("worker: running",
				"Lifecycle: shutdown initiated (reason=start-failed, component=licenceCheck, "
						+ "detail=java.lang.IllegalStateException: licence expired)",
				"Lifecycle: shutdown complete (clean=false, exitCode=1");
		// Each bean and component that started was told to stop once.
		assertThat(occurrences(log, "client: stop called")).isEqualTo(1);
		assertThat(occurrences(log, "worker: draining")).isEqualTo(1);
		assertThat(ProcessTestApps.runMarker(this.directory)).doesNotExist();
		assertThat(reports()).singleElement().satisfies((file) -> {
			ShutdownRecord report = ShutdownRecord.read(file);
			assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.START_FAILED, "licenceCheck",
					"java.lang.IllegalStateException: licence expired"));
			assertThat(report.state()).isEqualTo(ShutdownRecord.State.COMPLETED);
			assertThat(report.clean()).isFalse();
			assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		});

		ChildJvm next = start("next");
		assertThat(next.log()).containsPattern(
				"Lifecycle: previous shutdown \\([^)]+\\): start-failed of 'licenceCheck', not clean, [0-9.]+ s, exit 1")
			.doesNotContain("previous process did not finish");
		assertThat(uncleanPreviousRuns(next)).isZero();
		next.signal(ShutdownSignal.TERM);
		assertThat(next.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
	}

	private static int occurrences(String text, String part) {
		return text.split(Pattern.quote(part), -1).length - 1;
	}

	/** The previous-run/unclean counter as scraped, 0 when the series is absent. */
	private static double uncleanPreviousRuns(ChildJvm process) throws IOException {
		Matcher matcher = UNCLEAN_PREVIOUS_RUN.matcher(process.get("/actuator/prometheus").body());
		return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
	}

	private List<Path> reports() {
		return ShutdownRecord.files(ProcessTestApps.runMarker(this.directory));
	}

	private ChildJvm start(String name, String... arguments) throws IOException {
		return this.jvms.start(ProcessTestApps.app(name, this.directory, arguments));
	}

}
