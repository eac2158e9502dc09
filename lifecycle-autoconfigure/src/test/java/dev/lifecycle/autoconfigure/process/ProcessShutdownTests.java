package dev.lifecycle.autoconfigure.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.Cut;
import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.core.ShutdownSignal;
import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.ChildJvms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real JVMs running {@link ProcessTestApplication} with the signal trap on, as in
 * production: signals sent with {@code kill}, exit codes read from the process, probes
 * read over HTTP. These check what no in-JVM test can: the exit codes that
 * {@link ExitCodes} declares really reach the operating system, and the web server
 * answers through the drain.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class ProcessShutdownTests {

	private static final Duration START_TO_EXIT = Duration.ofSeconds(30);

	/** The instant a line of Spring Boot's default log format begins with. */
	private static final Pattern LOG_TIME = Pattern.compile("^(\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z)");

	@RegisterExtension
	final ChildJvms jvms = new ChildJvms();

	@TempDir
	Path directory;

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "tomcat", "jetty", "reactor-netty" })
	void sigtermDrainsWhileReadinessIsDownAndLivenessUpThenExitsZero(String server) throws Exception {
		ChildJvm app = start(server, serverArguments(server, "--process-test.drain=3s"));
		assertThat(app.log()).contains(Map.of("tomcat", "Tomcat started on port", "jetty", "Jetty started on port",
				"reactor-netty", "Netty started on port")
			.get(server));
		assertThat(app.status("/actuator/health/readiness")).isEqualTo(200);
		long signalled = System.nanoTime();
		app.signal(ShutdownSignal.TERM);
		app.awaitLog("worker: draining for 3000 ms", Duration.ofSeconds(10));
		// The drain is under way: the server still answers, readiness DOWN, liveness UP.
		assertThat(app.status("/actuator/health/readiness")).isEqualTo(503);
		assertThat(app.status("/actuator/health/liveness")).isEqualTo(200);
		assertThat(app.isAlive()).isTrue();
		int exitCode = app.awaitExit(START_TO_EXIT);
		Duration elapsed = Duration.ofNanos(System.nanoTime() - signalled);
		assertThat(exitCode).isEqualTo(ExitCodes.CLEAN);
		assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofSeconds(3));
		String log = app.log();
		assertThat(log).contains("Lifecycle: received SIGTERM",
				"Lifecycle: shutdown initiated (reason=signal, component=signal)", "worker: drained",
				"Lifecycle: shutdown complete (clean=true, exitCode=0");
		assertThat(log.indexOf("worker: drained")).isLessThan(log.indexOf("Lifecycle: shutdown complete"));
		// Spring Boot's logging lifecycle stays Spring's: it must stop after everything
		// else.
		assertThat(log).doesNotContain("springBootLoggingLifecycle");
		// The web server's graceful shutdown and stop are steps of the sequence, before
		// the report.
		assertThat(log).containsSubsequence("worker: drained",
				"Lifecycle: closing step 'web server graceful shutdown' finished",
				"Lifecycle: closing step 'web server stop' finished", "Lifecycle: shutdown complete");
		assertThat(ProcessTestApps.runMarker(this.directory)).doesNotExist();
	}

	@Test
	void secondSigtermDuringASlowDrainExits128AtOnce() throws Exception {
		ChildJvm app = start("app", "--process-test.drain=30s");
		long first = System.nanoTime();
		app.signal(ShutdownSignal.TERM);
		app.awaitLog("worker: draining for 30000 ms", Duration.ofSeconds(10));
		long second = System.nanoTime();
		app.signal(ShutdownSignal.TERM);
		int exitCode = app.awaitExit(Duration.ofSeconds(10));
		long end = System.nanoTime();
		assertThat(exitCode).isEqualTo(ExitCodes.FORCED);
		assertThat(Duration.ofNanos(end - second)).isLessThan(Duration.ofSeconds(5));
		assertThat(Duration.ofNanos(end - first)).isLessThan(Duration.ofSeconds(15));
		assertThat(app.log()).contains("Lifecycle: second shutdown signal; forcing exit with code 128")
			.doesNotContain("worker: drained")
			.doesNotContain("Lifecycle: shutdown complete");
		// A forced exit is an unclean end: the run marker stays for the next start to
		// count.
		assertThat(ProcessTestApps.runMarker(this.directory)).exists();
	}

	@Test
	void componentFailureShutsDownOnItsOwnAndExitsOne() throws Exception {
		ChildJvm app = start("app", "--process-test.fail-after=500ms");
		int exitCode = app.awaitExit(START_TO_EXIT);
		assertThat(exitCode).isEqualTo(ExitCodes.FAILURE);
		assertThat(app.log())
			.contains("Lifecycle: component 'worker' signalled failure: simulated failure after",
					"Lifecycle: shutdown initiated (reason=failure, component=worker",
					"Lifecycle: shutdown complete (clean=false, exitCode=1")
			.doesNotContain("Lifecycle: received SIG");
	}

	@Test
	void hungComponentExits129AtTheCeilingNamingTheComponentAndItsStack() throws Exception {
		ChildJvm app = start("app", "--process-test.hang-on-stop=true", "--lifecycle.global-shutdown-timeout=2s");
		app.signal(ShutdownSignal.TERM);
		int exitCode = app.awaitExit(Duration.ofSeconds(20));
		Duration elapsed = fromTheShutdownToTheLastLine(app.log());
		assertThat(exitCode).isEqualTo(ExitCodes.CEILING);
		assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofSeconds(2)).isLessThan(Duration.ofSeconds(20));
		String log = app.log();
		assertThat(log).contains("worker: hanging on stop",
				"Lifecycle: global shutdown timeout of PT2S expired during standard drain, phase 10; still running:",
				"component 'worker' (tier STANDARD, phase 10, told to stop", "thread \"lifecycle-worker\"",
				"ProcessTestApplication$Worker.hangForever",
				"Lifecycle: shutdown incomplete (clean=false, exitCode=129");
	}

	@Test
	void aPlainComponentsBudgetOverrunNamesTheRequestThreadInsideItsCriticalSectionWithItsStack() throws Exception {
		ChildJvm app = start("app", "--process-test.holding=true", "--spring.lifecycle.timeout-per-shutdown-phase=1s");
		Thread request = new Thread(() -> app.post("/hold"), "hold-request");
		request.setDaemon(true);
		request.start();
		app.awaitLog("orders: holding a critical section", Duration.ofSeconds(30));

		app.signal(ShutdownSignal.TERM);

		app.awaitExit(Duration.ofSeconds(30));
		assertThat(app.log()).contains(
				"Lifecycle: component 'orders' did not stop within its graceful budget of PT1S (open critical sections: 1); "
						+ "still running:",
				"opened a critical section still open after", "ProcessTestApplication$HoldingApi.hold")
			.containsPattern("thread \"http-nio-[^\"]*-exec-[0-9]+\" TIMED_WAITING, opened a critical section")
			.doesNotContain("lifecycle-stop-idle");
	}

	@Test
	void anHttpRequestHeldPastTheCeilingIsNamedInItsComponentsEntryOfTheReportFileWhichIsNotClean() throws Exception {
		ChildJvm app = start("app", "--process-test.holding=true",
				"--lifecycle.components.orders.graceful-shutdown=60s", "--lifecycle.global-shutdown-timeout=2s");
		Thread request = new Thread(() -> app.post("/hold"), "hold-request");
		request.setDaemon(true);
		request.start();
		app.awaitLog("orders: holding a critical section", Duration.ofSeconds(30));

		app.signal(ShutdownSignal.TERM);

		assertThat(app.awaitExit(Duration.ofSeconds(30))).isEqualTo(ExitCodes.CEILING);
		ShutdownRecord report = report();
		assertThat(report.state()).isEqualTo(ShutdownRecord.State.CEILING);
		assertThat(report.clean()).isFalse();
		ComponentReport orders = report.component("orders").orElse(null);
		assertThat(orders).as(report.toString()).isNotNull();
		assertThat(orders.cut()).as(orders.toString())
			.singleElement()
			.satisfies((cut) -> assertThat(cut.byCeiling()).isTrue())
			.extracting(Cut::toString)
			.asString()
			.matches("cut by the global ceiling: thread \"http-nio-[^\"]*-exec-[0-9]+\" opened a critical section "
					+ "still open after [0-9]+ ms");
	}

	@Test
	void preStopFileTurnsReadinessDownWithinOneSecondAndTheLaterSigtermIsNotASecondSignal() throws Exception {
		ChildJvm app = start("app", "--process-test.drain=4s");
		assertThat(app.status("/actuator/health/readiness")).isEqualTo(200);
		long created = System.nanoTime();
		Files.createFile(ProcessTestApps.preStopFile(this.directory));
		await("readiness 503").atMost(Duration.ofSeconds(1))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> app.status("/actuator/health/readiness") == 503);
		assertThat(Duration.ofNanos(System.nanoTime() - created)).isLessThan(Duration.ofSeconds(1));
		assertThat(app.status("/actuator/health/liveness")).isEqualTo(200);
		// Kubernetes' SIGTERM follows the preStop hook; here it arrives in the middle of
		// the drain.
		app.awaitLog("worker: draining for 4000 ms", Duration.ofSeconds(10));
		assertThat(app.isAlive()).isTrue();
		assertThat(app.log()).doesNotContain("worker: drained");
		app.signal(ShutdownSignal.TERM);
		int exitCode = app.awaitExit(START_TO_EXIT);
		assertThat(exitCode).isEqualTo(ExitCodes.CLEAN);
		String log = app.log();
		assertThat(log)
			.contains("Lifecycle: pre-stop file", "Lifecycle: shutdown initiated (reason=prestop",
					"Lifecycle: received SIGTERM", "worker: drained",
					"Lifecycle: shutdown complete (clean=true, exitCode=0")
			.doesNotContain("second shutdown signal");
		// The SIGTERM landed during the drain, before the sequence ended.
		assertThat(log.indexOf("Lifecycle: received SIGTERM")).isLessThan(log.indexOf("worker: drained"));
	}

	@Test
	void sigkillLeavesTheRunMarkerAndTheNextStartCountsAnUncleanPreviousRun() throws Exception {
		ChildJvm first = start("first");
		Path marker = ProcessTestApps.runMarker(this.directory);
		assertThat(marker).exists();
		first.destroyForcibly();
		assertThat(marker).exists();
		ChildJvm second = start("second");
		assertThat(second.log()).contains("Lifecycle: the previous process did not finish its shutdown");
		String metrics = second.get("/actuator/prometheus").body();
		assertThat(metrics)
			.containsPattern("lifecycle_shutdown_initiated_total\\{(?=[^}]*service_name=\"process-test\")"
					+ "(?=[^}]*trigger_component=\"previous-run\")(?=[^}]*trigger_reason=\"unclean\")[^}]*} 1\\.0");
		second.signal(ShutdownSignal.TERM);
		assertThat(second.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
		assertThat(marker).doesNotExist();
	}

	@Test
	void aStuckSmartLifecycleExits129WithinTheCeilingPlusTwoSecondsNamingTheBeanAndItsStack() throws Exception {
		ChildJvm app = start("app", "--process-test.stuck-lifecycle=true", "--lifecycle.global-shutdown-timeout=2s");
		app.signal(ShutdownSignal.TERM);
		int exitCode = app.awaitExit(Duration.ofSeconds(20));
		Duration elapsed = fromTheShutdownToTheLastLine(app.log());
		assertThat(exitCode).isEqualTo(ExitCodes.CEILING);
		assertThat(elapsed).isLessThan(Duration.ofSeconds(4));
		assertThat(app.log()).contains("stuckClient: stop called",
				"Lifecycle: global shutdown timeout of PT2S expired during standard drain, phase 2147483647",
				"component 'stuckClient' (tier STANDARD, phase 2147483647, told to stop",
				"thread \"lifecycle-stop-stuckClient\"", "ProcessTestApplication$StuckClient.stop");
	}

	@Test
	void aStuckPreDestroyIsHaltedWith129WithinTheCeilingPlusTwoSecondsNamingTheBeanAndItsStack() throws Exception {
		ChildJvm app = start("app", "--process-test.stuck-pre-destroy=true", "--lifecycle.global-shutdown-timeout=2s");
		app.signal(ShutdownSignal.TERM);
		int exitCode = app.awaitExit(Duration.ofSeconds(20));
		Duration elapsed = fromTheShutdownToTheLastLine(app.log());
		assertThat(exitCode).isEqualTo(ExitCodes.CEILING);
		assertThat(elapsed).isLessThan(Duration.ofSeconds(4));
		assertThat(app.log()).contains("Lifecycle: shutdown complete (clean=true, exitCode=0",
				"stuckResource: @PreDestroy called",
				"Lifecycle: the process is still running 1500 ms after the global shutdown timeout of PT2S; halting "
						+ "with exit code 129",
				"destroying bean 'stuckResource'", "ProcessTestApplication$StuckResource.close");
		// The sequence itself ended cleanly, but the process did not: its report says how
		// it ended.
		ShutdownRecord report = report();
		assertThat(report.state()).isEqualTo(ShutdownRecord.State.CEILING);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CEILING);
		assertThat(report.clean()).isFalse();
		assertThat(report.diagnostics()).contains("held by what ran after the sequence");
	}

	@Test
	void withSignalsLeftToTheJvmAStuckSmartLifecycleStillExits129WithinTheCeilingPlusTwoSeconds() throws Exception {
		ChildJvm app = start("app", "--process-test.stuck-lifecycle=true", "--lifecycle.global-shutdown-timeout=2s",
				"--lifecycle.signals.trap=false");
		app.signal(ShutdownSignal.TERM);
		int exitCode = app.awaitExit(Duration.ofSeconds(20));
		Duration elapsed = fromTheShutdownToTheLastLine(app.log());
		// The JVM's own shutdown hook closed the context: the same sequence, and 129
		// rather than 143.
		assertThat(exitCode).isEqualTo(ExitCodes.CEILING);
		assertThat(elapsed).isLessThan(Duration.ofSeconds(4));
		assertThat(app.log()).doesNotContain("Lifecycle: received SIGTERM")
			.contains("Lifecycle: shutdown initiated (reason=signal, component=context-close)",
					"component 'stuckClient' (tier STANDARD, phase 2147483647, told to stop",
					"ProcessTestApplication$StuckClient.stop");
	}

	@Test
	void scheduledTicksContinueThroughTheDrainDelayAndAnAsyncTaskRunningAtSigtermCompletes() throws Exception {
		ChildJvm app = start("app", "--process-test.scheduling=true", "--process-test.async-task=2500ms",
				"--lifecycle.drain-delay=1s");
		app.awaitLog("async: started", Duration.ofSeconds(10));
		app.signal(ShutdownSignal.TERM);
		assertThat(app.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
		String log = app.log();
		int initiated = log.indexOf("Lifecycle: shutdown initiated");
		int drainStarts = log.indexOf("Lifecycle: stopping phase");
		assertThat(initiated).isPositive();
		assertThat(drainStarts).isGreaterThan(initiated);
		// The drain delay is 1 s and the ticker fires every 100 ms: several ticks fall
		// inside it.
		assertThat(log.substring(initiated, drainStarts).split("ticker: tick").length - 1).isGreaterThanOrEqualTo(5);
		assertThat(log).contains("async: completed").doesNotContain("async: interrupted");
		assertThat(log.indexOf("async: completed")).isLessThan(log.indexOf("Lifecycle: shutdown complete"));
		// No trigger after the scheduler's turn.
		assertThat(log.substring(log.indexOf("Lifecycle: shutdown complete"))).doesNotContain("ticker: tick");
	}

	@Test
	void aFiniteJobEndsTheProcessWithExitZeroWhileSpringsSchedulerAndExecutorAreAdopted() throws Exception {
		ChildJvm app = start("app", "--process-test.scheduling=true", "--process-test.async-task=200ms",
				"--process-test.job=1s", "--lifecycle.components.worker.finite=true");

		assertThat(app.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
		assertThat(app.log()).contains("worker: job done", "adopted",
				"Lifecycle: shutdown initiated (reason=completed, component=worker",
				"Lifecycle: shutdown complete (clean=true, exitCode=0");
	}

	@Test
	void aSigtermBeforeAnyBeanExistsIsHeldAndEndsTheStartCleanlyWithExitZero() throws Exception {
		ChildJvm app = this.jvms.launch(ProcessTestApps.app("app", this.directory, "--process-test.slow-start=2s"));
		// Logged before the context is refreshed: no Lifecycle bean exists yet.
		app.awaitLog("Starting ProcessTestApplication", Duration.ofSeconds(60));
		app.signal(ShutdownSignal.TERM);
		assertThat(app.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
		assertThat(app.log()).contains("Lifecycle: received SIGTERM", "Lifecycle: shutdown initiated (reason=signal",
				"Lifecycle: shutdown complete (clean=true, exitCode=0");
	}

	@Test
	void aSigtermIgnoredByTheParentIsNamedAtStartAndSighupStillShutsDownCleanly() throws Exception {
		ChildJvm app = this.jvms.start(ProcessTestApps.app("app", this.directory).ignoring(ShutdownSignal.TERM));
		assertThat(app.log()).contains("Lifecycle: SIGTERM is ignored by this process")
			.doesNotContain("SIGHUP is ignored");

		app.signal(ShutdownSignal.HUP);

		assertThat(app.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
		assertThat(app.log()).contains("Lifecycle: received SIGHUP; starting the coordinated shutdown",
				"Lifecycle: shutdown complete (clean=true, exitCode=0");
	}

	@Test
	void sigtermDuringStartUpEndsTheStartCleanlyWithExitZero() throws Exception {
		// With a watched component the health monitor would start: the shutdown that ran
		// during the slow start has already ended the engine's threads by then.
		ChildJvm app = this.jvms.launch(ProcessTestApps.app("app", this.directory, "--process-test.slow-start=3s",
				"--process-test.watched=true"));
		app.awaitLog("slow start: waiting", Duration.ofSeconds(60));
		app.signal(ShutdownSignal.TERM);
		assertThat(app.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
		assertThat(app.log())
			.contains("Lifecycle: received SIGTERM; starting the coordinated shutdown",
					"Lifecycle: shutdown initiated (reason=signal, component=signal)",
					"Lifecycle: shutdown complete (clean=true, exitCode=0",
					"Lifecycle: the shutdown began before the start; no component starts")
			.doesNotContain("worker: running");
	}

	/**
	 * Selects the web server: Tomcat by default (the test classpath's
	 * application.properties excludes the others), Jetty for a servlet application,
	 * Reactor Netty for a WebFlux one.
	 */
	private static String[] serverArguments(String server, String... arguments) {
		List<String> all = new ArrayList<>(List.of(arguments));
		if (server.equals("jetty")) {
			all.add("--spring.autoconfigure.exclude="
					+ "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration,"
					+ "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
					+ "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration");
		}
		else if (server.equals("reactor-netty")) {
			all.add("--spring.main.web-application-type=reactive");
		}
		return all.toArray(String[]::new);
	}

	/** The one shutdown report the process left, read through the codec that wrote it. */
	/**
	 * From the shutdown's first instant to the last line the process wrote, on the
	 * process's own clock: the test's clock would add the signal's delivery and the
	 * exit's noticing, which a loaded machine stretches.
	 */
	private static Duration fromTheShutdownToTheLastLine(String log) {
		Instant initiated = null;
		Instant last = null;
		for (String line : log.split("\\R")) {
			Matcher stamp = LOG_TIME.matcher(line);
			if (stamp.find()) {
				Instant at = Instant.parse(stamp.group(1));
				if (initiated == null && line.contains("Lifecycle: shutdown initiated")) {
					initiated = at;
				}
				last = at;
			}
		}
		assertThat(initiated).as("the shutdown's first line in the log").isNotNull();
		return Duration.between(initiated, last);
	}

	private ShutdownRecord report() throws IOException {
		return ShutdownRecord.read(ShutdownRecord.files(ProcessTestApps.runMarker(this.directory)).get(0));
	}

	private ChildJvm start(String name, String... arguments) throws IOException {
		return this.jvms.start(ProcessTestApps.app(name, this.directory, arguments));
	}

}
