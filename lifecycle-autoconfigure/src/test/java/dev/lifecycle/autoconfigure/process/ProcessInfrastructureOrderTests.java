package dev.lifecycle.autoconfigure.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.ShutdownSignal;
import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.ChildJvms;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * What is used stops after what uses it, in real JVMs under real signals: the reference
 * manual's payments recipe under load through SIGTERM, and an {@code @Async} task and
 * {@code @Scheduled} triggers around SIGTERM, each with virtual threads off and on (on
 * needs Java 21).
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class ProcessInfrastructureOrderTests {

	private static final Duration START_TO_EXIT = Duration.ofSeconds(40);

	private static final Pattern LOG_TIME = Pattern.compile("(\\d{2}:\\d{2}:\\d{2}\\.\\d{3})");

	@RegisterExtension
	final ChildJvms jvms = new ChildJvms();

	@TempDir
	Path directory;

	@Test
	void theManualsRecipeUnderLoadThroughSigtermAnswersEveryRequestAndSendsEveryReceipt() throws Exception {
		recipeUnderLoadThroughSigterm(false);
	}

	@Test
	@Tag("jdk25")
	void theManualsRecipeUnderLoadThroughSigtermAnswersEveryRequestAndSendsEveryReceiptOnVirtualThreads()
			throws Exception {
		recipeUnderLoadThroughSigterm(true);
	}

	private void recipeUnderLoadThroughSigterm(boolean virtual) throws Exception {
		assumeVirtualThreadsIfAsked(virtual);
		Path receipts = this.directory.resolve("receipts.txt");
		ChildJvm app = start("payments", "--process-test.recipe=true", "--process-test.receipts-file=" + receipts,
				"--process-test.receipt-time=800ms", "--lifecycle.drain-delay=1500ms", "--management.server.port=0",
				"--spring.threads.virtual.enabled=" + virtual,
				"--spring.autoconfigure.exclude="
						+ "org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration,"
						+ "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration,"
						+ "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
						+ "org.springframework.boot.jetty.autoconfigure.actuate.web.server."
						+ "JettyServletManagementContextAutoConfiguration");
		assertThat(ProcessTestApps.status(app, ".management", "/actuator/health/readiness")).isEqualTo(200);
		Set<String> acknowledged = ConcurrentHashMap.newKeySet();
		AtomicInteger nonSuccess = new AtomicInteger();
		AtomicInteger sent = new AtomicInteger();
		AtomicBoolean stop = new AtomicBoolean();
		List<Thread> clients = new ArrayList<>();
		for (int client = 0; client < 4; client++) {
			int number = client;
			Thread thread = new Thread(() -> {
				for (int i = 0; !stop.get() && app.isAlive(); i++) {
					String id = number + "-" + i;
					sent.incrementAndGet();
					int status = app.post("/pay?id=" + id);
					if (status >= 200 && status < 300) {
						acknowledged.add(id);
					}
					else if (status != -1) {
						// -1: the server no longer accepts connections, as a stopped pod;
						// anything
						// else that is not 2xx is a request the drain failed.
						nonSuccess.incrementAndGet();
					}
					pause(20);
				}
			}, "client-" + client);
			thread.start();
			clients.add(thread);
		}
		// Probes on the management server, until the process is gone.
		List<String> probes = new ArrayList<>();
		Thread prober = new Thread(() -> {
			while (app.isAlive()) {
				int readiness = ProcessTestApps.status(app, ".management", "/actuator/health/readiness");
				int liveness = ProcessTestApps.status(app, ".management", "/actuator/health/liveness");
				if (readiness != -1 || liveness != -1) {
					synchronized (probes) {
						probes.add(LocalTime.now() + " " + readiness + " " + liveness + " "
								+ app.log().contains("closing step 'web server stop' finished"));
					}
				}
				pause(50);
			}
		}, "prober");
		prober.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> acknowledged.size() >= 20);
		app.signal(ShutdownSignal.TERM);
		int exit = app.awaitExit(START_TO_EXIT);
		stop.set(true);
		for (Thread thread : clients) {
			thread.join(15_000);
		}
		prober.join(15_000);
		String log = app.log();
		assertThat(exit).isEqualTo(ExitCodes.CLEAN);
		assertThat(nonSuccess).as("requests answered other than 2xx of %s sent", sent.get()).hasValue(0);
		Set<String> written = new HashSet<>(Files.readAllLines(receipts));
		assertThat(written).as("receipts of acknowledged payments").containsAll(acknowledged);
		assertThat(log).contains("shutdown complete (clean=true, exitCode=0").contains("failedRequests=0)");
		// The executor drained after the web server stopped; the probes answered after
		// that.
		assertThat(log.indexOf("Lifecycle: stopping infrastructure phase")).isGreaterThan(log.indexOf("api: stopped"))
			.isGreaterThan(log.indexOf("closing step 'web server stop' finished"));
		synchronized (probes) {
			assertThat(probes).anySatisfy((probe) -> assertThat(probe).endsWith(" 503 200 true"));
		}
		System.out.println(
				"recipe (virtual threads " + virtual + "): " + sent.get() + " requests sent, " + acknowledged.size()
						+ " acknowledged, " + nonSuccess.get() + " non-2xx, " + written.size() + " receipts written");
	}

	@Test
	void anAsyncTaskStartedBeforeSigtermFinishesAndScheduledTicksContinueThroughTheDrainDelay() throws Exception {
		asyncTaskAndTicksThroughTheDrainDelay(false);
	}

	@Test
	@Tag("jdk25")
	void anAsyncTaskStartedBeforeSigtermFinishesAndScheduledTicksContinueThroughTheDrainDelayOnVirtualThreads()
			throws Exception {
		asyncTaskAndTicksThroughTheDrainDelay(true);
	}

	private void asyncTaskAndTicksThroughTheDrainDelay(boolean virtual) throws Exception {
		assumeVirtualThreadsIfAsked(virtual);
		ChildJvm app = start("timing", "--process-test.scheduling=true", "--process-test.async-task=3s",
				"--lifecycle.drain-delay=2s", "--spring.threads.virtual.enabled=" + virtual);
		app.awaitLog("async: started", Duration.ofSeconds(10));
		pause(500);
		app.signal(ShutdownSignal.TERM);
		assertThat(app.awaitExit(START_TO_EXIT)).isEqualTo(ExitCodes.CLEAN);
		String log = app.log();
		assertThat(log).contains("async: completed").doesNotContain("async: interrupted");
		assertThat(log).contains("shutdown complete (clean=true");
		int initiated = log.indexOf("Lifecycle: shutdown initiated");
		String drainDelay = log.substring(initiated, log.indexOf("Lifecycle: stopping phase", initiated));
		// Triggers every 100 ms through a 2 s drain delay.
		assertThat(drainDelay.split("ticker: tick").length - 1).isGreaterThanOrEqualTo(10);
		assertThat(log.indexOf("async: completed")).isLessThan(log.indexOf("Lifecycle: shutdown complete"));
		LocalTime sigterm = time(log, "Lifecycle: shutdown initiated");
		LocalTime started = time(log, "async: started");
		LocalTime completed = time(log, "async: completed");
		LocalTime lastTick = time(log,
				log.substring(0, log.indexOf("Lifecycle: shutdown complete")).lastIndexOf("ticker: tick"));
		LocalTime complete = time(log, "Lifecycle: shutdown complete");
		System.out.println("timing (JDK " + Runtime.version().feature() + ", virtual threads " + virtual
				+ "): async started " + millis(sigterm, started) + " ms, async completed +" + millis(sigterm, completed)
				+ " ms, last tick +" + millis(sigterm, lastTick) + " ms, shutdown complete +"
				+ millis(sigterm, complete) + " ms (relative to SIGTERM)");
	}

	private static void assumeVirtualThreadsIfAsked(boolean virtual) {
		if (virtual) {
			assumeThat(Runtime.version().feature()).as("virtual threads need Java 21").isGreaterThanOrEqualTo(21);
		}
	}

	private ChildJvm start(String name, String... arguments) throws IOException {
		return this.jvms.start(ProcessTestApps.app(name, this.directory, arguments));
	}

	private static LocalTime time(String log, String text) {
		return time(log, log.indexOf(text));
	}

	/** The time stamp of the log line that holds the given index. */
	private static LocalTime time(String log, int index) {
		int lineStart = log.lastIndexOf('\n', index) + 1;
		Matcher matcher = LOG_TIME.matcher(log.substring(lineStart, Math.max(lineStart, index)));
		if (!matcher.find()) {
			throw new AssertionError("no time stamp on the line at " + index);
		}
		return LocalTime.parse(matcher.group(1));
	}

	private static long millis(LocalTime from, LocalTime to) {
		return Duration.between(from, to).toMillis();
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
