package dev.lifecycle.autoconfigure.process;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.core.ShutdownSignal;
import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.ChildJvms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A JVM that runs more than one application context with Lifecycle, stopped by a real
 * SIGTERM: two {@code SpringApplication}s side by side, and a parent and child context.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class ProcessSeveralContextsTests {

	private static final Duration START_TO_EXIT = Duration.ofSeconds(90);

	private static final String READINESS = "/actuator/health/readiness";

	@RegisterExtension
	final ChildJvms jvms = new ChildJvms();

	@TempDir
	Path directory;

	@Test
	void aSigtermReachesBothApplicationsAtOnceAndTheProcessExitsOnceWithTheWorstCode() throws Exception {
		// The first application's worker outlives its budget: its report says incomplete,
		// the second's clean.
		ChildJvm apps = start(TwoApplications.class, "two", "--lifecycle.drain-delay=2500ms",
				"--first.process-test.drain=5s", "--first.lifecycle.components.worker.graceful-shutdown=300ms");
		assertThat(apps.status(READINESS)).isEqualTo(200);
		assertThat(ProcessTestApps.status(apps, ".first", READINESS)).isEqualTo(200);

		apps.signal(ShutdownSignal.TERM);

		// Both refuse traffic through the same drain delay, so at one moment both say
		// 503.
		await("both readiness probes 503").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> apps.status(READINESS) == 503 && ProcessTestApps.status(apps, ".first", READINESS) == 503);
		assertThat(apps.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.INCOMPLETE);
		String log = apps.log();
		assertThat(occurrences(log, "Lifecycle: received SIGTERM; starting the coordinated shutdown")).isEqualTo(2);
		assertThat(log).contains("Lifecycle: shutdown complete (clean=true, exitCode=0",
				"Lifecycle: shutdown complete (clean=false, exitCode=75",
				"Lifecycle: exit code 75, the worst of the 2 applications of this JVM that the signal reached");
		assertThat(report("marker"))
			.extracting((report) -> report.trigger().reason(), ShutdownRecord::clean, ShutdownRecord::exitCode)
			.containsExactly(ShutdownReason.SIGNAL, true, ExitCodes.CLEAN);
		assertThat(report("marker-first"))
			.extracting((report) -> report.trigger().reason(), ShutdownRecord::clean, ShutdownRecord::exitCode)
			.containsExactly(ShutdownReason.SIGNAL, false, ExitCodes.INCOMPLETE);
	}

	@Test
	void aParentAndChildContextShareOneEngineThatDrainsTheChildsComponentsBeforeTheParentsAndExitsZero()
			throws Exception {
		ChildJvm app = start(HierarchyApplication.class, "hierarchy", "--lifecycle.drain-delay=1s",
				"--process-test.drain=500ms");
		assertThat(app.status(READINESS)).isEqualTo(200);
		assertThat(app.log()).contains("Lifecycle: this child application context joined the engine of its parent");

		app.signal(ShutdownSignal.TERM);

		await("readiness 503").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> app.status(READINESS) == 503);
		assertThat(app.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
		String log = app.log();
		assertThat(occurrences(log, "Lifecycle: received SIGTERM")).isOne();
		// The child's worker (phase 10) drains before the parent's store (phase 5), then
		// the child's web server stops, all in the one sequence.
		assertThat(log).containsSubsequence("Lifecycle: received SIGTERM; starting the coordinated shutdown",
				"worker: drained", "store: stopped", "Lifecycle: closing step 'web server stop' finished",
				"Lifecycle: shutdown complete (clean=true, exitCode=0");
		ShutdownRecord report = report("marker");
		assertThat(report)
			.extracting((record) -> record.trigger().reason(), ShutdownRecord::clean, ShutdownRecord::exitCode)
			.containsExactly(ShutdownReason.SIGNAL, true, ExitCodes.CLEAN);
		assertThat(report.component("worker")).isPresent();
		assertThat(report.component("store")).isPresent();
		assertThat(ProcessTestApps.runMarker(this.directory)).doesNotExist();
	}

	@Test
	void aChildContextThatFailsToStartIsAFailedStartOfTheApplicationAndTheProcessExitsOne() throws Exception {
		ChildJvm app = this.jvms.launch(ProcessTestApps.app(HierarchyApplication.class, "failing", this.directory,
				"--process-test.throwing-constructor=true"));

		assertThat(app.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.FAILURE);
		ShutdownRecord report = report("marker");
		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.START_FAILED);
		assertThat(report.trigger().component()).isEqualTo("refresh");
		assertThat(report.trigger().detail()).contains("a child application context failed to start",
				"database unreachable");
		assertThat(report.clean()).isFalse();
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(ProcessTestApps.runMarker(this.directory)).doesNotExist();
	}

	private static int occurrences(String text, String part) {
		return text.split(Pattern.quote(part), -1).length - 1;
	}

	/**
	 * The one report next to this run marker, read through the codec that wrote it.
	 */
	private ShutdownRecord report(String marker) throws IOException {
		List<Path> reports = ShutdownRecord.files(this.directory.toAbsolutePath().resolve(marker));
		assertThat(reports).hasSize(1);
		return ShutdownRecord.read(reports.get(0));
	}

	private ChildJvm start(Class<?> main, String name, String... arguments) throws IOException {
		return this.jvms.start(ProcessTestApps.app(main, name, this.directory, arguments));
	}

}
