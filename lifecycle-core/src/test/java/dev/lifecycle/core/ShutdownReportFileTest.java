package dev.lifecycle.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.record.ReportFiles;
import dev.lifecycle.core.record.ReportJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The shutdown stays visible after the process is gone: a JSON report next to the run
 * marker, written as the sequence goes and summarised by the next start.
 */
class ShutdownReportFileTest {

	@TempDir
	Path directory;

	private final CountDownLatch stuck = new CountDownLatch(1);

	@AfterEach
	void release() {
		this.stuck.countDown();
	}

	private Path marker() {
		return this.directory.resolve("lifecycle-orders.running");
	}

	private LifecycleManager.Builder builder() {
		return LifecycleManager.builder("orders").runMarker(marker()).applicationVersion("1.2.3");
	}

	private List<Path> reports() {
		return new ReportFiles(this.directory.resolve("lifecycle-orders.running")).list();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> read(Path file) throws IOException {
		return (Map<String, Object>) ReportJson.parse(Files.readString(file));
	}

	@Test
	void requestsThatFailedAfterTheTriggerAreInTheReportFileAndTheNextStartsSummary() throws Exception {
		LifecycleManager first = builder().drainDelay(Duration.ofMillis(200)).build();
		first.start();
		first.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		LifecycleHost.of(first).recordFailedRequest();
		LifecycleHost.of(first).recordFailedRequest();
		LifecycleHost.of(first).recordFailedRequest();
		first.awaitTermination();

		assertThat(read(reports().get(0))).containsEntry("failedRequests", 3L).containsEntry("clean", true);
		assertThat(builder().build().previousRun().orElseThrow().summary()).contains("clean")
			.contains("3 request(s) failed after the trigger");
	}

	@Test
	void aFinishedShutdownLeavesAReportThatTheNextStartSummarises() throws Exception {
		LifecycleManager first = builder().build();
		first.registerPassive("pipeline", ComponentOptions.defaults().withPhase(10), (handle) -> {
		});
		first.addShutdownHandler("checkpoint", Duration.ofSeconds(5), () -> {
		});
		first.start();
		first.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		first.awaitTermination();

		assertThat(reports()).singleElement();
		Map<String, Object> report = read(reports().get(0));
		assertThat(report).containsEntry("schema", "dev.lifecycle/shutdown-report")
			.containsEntry("version", (long) ShutdownRecord.VERSION)
			.containsEntry("service", "orders")
			.containsEntry("applicationVersion", "1.2.3")
			.containsEntry("state", "completed")
			.containsEntry("exitCode", 0L)
			.containsEntry("clean", true)
			.containsEntry("trigger", Map.of("reason", "signal", "component", "signal", "detail", ""));
		assertThat((List<Map<String, Object>>) report.get("steps")).extracting((step) -> step.get("name"))
			.containsExactly("drain delay", "shutdown handler 'checkpoint'", "standard drain, phase 10",
					"observability drain");
		assertThat((List<Map<String, Object>>) report.get("components")).singleElement()
			.satisfies((component) -> assertThat(component).containsEntry("name", "pipeline")
				.containsEntry("outcome", "completed")
				.containsEntry("phase", 10L));

		LogCapture logs = LogCapture.start();
		try {
			LifecycleManager next = builder().build();
			next.start();
			PreviousRun previous = next.previousRun().orElseThrow();
			assertThat(previous.unclean()).isFalse();
			assertThat(previous.summary()).startsWith("previous shutdown (")
				.contains("): signal, clean, ")
				.endsWith(", exit 0");
			assertThat(previous.report().state()).isEqualTo(ShutdownRecord.State.COMPLETED);
			assertThat(logs.messages())
				.anySatisfy((line) -> assertThat(line).startsWith("Lifecycle: previous shutdown ("));
			next.triggerShutdown(ShutdownReason.SIGNAL, "test");
			next.awaitTermination();
		}
		finally {
			logs.stop();
		}
	}

	@Test
	void aShutdownKilledMidDrainLeavesItsTimelineUpToThatPoint() throws Exception {
		LifecycleManager killed = builder().build();
		killed.registerPassive("ingest", ComponentOptions.defaults().withPhase(20), (handle) -> {
		});
		killed.registerPassive("pipeline", ComponentOptions.defaults().withPhase(10), (handle) -> this.stuck.await());
		killed.start();
		killed.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		await().atMost(Duration.ofSeconds(10))
			.until(() -> !reports().isEmpty()
					&& "standard drain, phase 20".equals(read(reports().get(0)).get("lastStep")));

		// The process dies here: nothing more is written, and its run marker stays.
		Map<String, Object> left = read(reports().get(0));
		assertThat(left).containsEntry("state", "in-progress").doesNotContainKey("exitCode");
		LifecycleManager next = builder().build();

		PreviousRun previous = next.previousRun().orElseThrow();
		assertThat(previous.unclean()).isTrue();
		assertThat(previous.summary()).contains("did not finish: signal, last finished step 'standard drain, phase 20'")
			.contains("killed");
		assertThat(previous.reportFile()).isEqualTo(reports().get(0));
		this.stuck.countDown();
		killed.awaitTermination();
	}

	@Test
	void aRunThatNeverShutDownIsReportedAsEndedWithoutAShutdown() throws Exception {
		Files.writeString(marker(), "pid=4242 started=2026-11-23T10:00:00Z\n");

		LifecycleManager next = builder().build();

		PreviousRun previous = next.previousRun().orElseThrow();
		assertThat(previous.unclean()).isTrue();
		assertThat(previous.summary())
			.isEqualTo("previous run (pid=4242 started=2026-11-23T10:00:00Z) ended without a shutdown: SIGKILL, "
					+ "OOM kill or crash");
		assertThat(previous.report()).isNull();
	}

	@Test
	void onlyTheNewestReportsAreKeptAndNoTemporaryFileIsLeft() throws Exception {
		for (int run = 0; run < 4; run++) {
			LifecycleManager manager = builder().shutdownReports(2).build();
			manager.start();
			manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
			manager.awaitTermination();
			// Report files are named by millisecond: the next run must start in a later
			// one.
			long finished = System.currentTimeMillis();
			await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() > finished);
		}
		assertThat(reports()).hasSize(2);
		try (var files = Files.list(this.directory)) {
			assertThat(files.map((file) -> file.getFileName().toString())).noneMatch((name) -> name.endsWith(".tmp"));
		}
	}

	@Test
	void aCeilingExitIsRecordedWithTheStacksOfWhatWasStillRunning() throws Exception {
		LifecycleManager manager = builder().globalShutdownTimeout(Duration.ofMillis(500)).build();
		manager.registerPassive("hung", ComponentOptions.defaults(), (handle) -> this.stuck.await());
		manager.start();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		manager.awaitTermination();

		Map<String, Object> report = read(reports().get(0));
		assertThat(report).containsEntry("state", "ceiling").containsEntry("exitCode", 129L);
		assertThat((String) report.get("diagnostics")).contains("component 'hung'", "thread \"lifecycle-stop-hung\"");
		PreviousRun previous = builder().build().previousRun().orElseThrow();
		assertThat(previous.summary()).contains(": signal, cut by the global ceiling, ", ", exit 129");
	}

	@Test
	@SuppressWarnings("unchecked")
	void theCeilingNamesWhatItCutInTheEntryOfEachComponentStillAtWorkAndTheNextStartsSummarySaysWhere()
			throws Exception {
		LifecycleManager manager = builder().globalShutdownTimeout(Duration.ofMillis(500)).build();
		ComponentHandle orders = manager.registerPassive("orders", ComponentOptions.defaults(), (handle) -> {
		});
		manager.registerPassive("hung", ComponentOptions.defaults(), (handle) -> this.stuck.await());
		manager.registerPassive("done", ComponentOptions.defaults().withPhase(10), (handle) -> {
		});
		manager.start();
		CountDownLatch inside = new CountDownLatch(1);
		Thread request = new Thread(() -> {
			try (ComponentHandle.CriticalSection section = orders.critical()) {
				inside.countDown();
				this.stuck.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "http-nio-exec-3");
		request.setDaemon(true);
		request.start();
		assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport ended = manager.awaitTermination();

		assertThat(ended.component("orders").orElseThrow().cut()).singleElement().satisfies((cut) -> {
			assertThat(cut.byCeiling()).isTrue();
			assertThat(cut.work())
				.matches("thread \"http-nio-exec-3\" opened a critical section still open after [0-9]+ ms");
		});
		Map<String, Object> report = read(reports().get(0));
		assertThat(report).containsEntry("state", "ceiling")
			.containsEntry("clean", false)
			.containsEntry("exitCode", 129L);
		ShutdownRecord record = ShutdownRecord.read(reports().get(0));
		assertThat(record.component("orders").orElseThrow().cut()).singleElement()
			.satisfies((cut) -> assertThat(cut.toString()).startsWith(
					"cut by the global ceiling: thread \"http-nio-exec-3\" opened a critical section still open"));
		assertThat(record.component("hung").orElseThrow().cut())
			.containsExactly(new Cut("thread \"lifecycle-stop-hung\" runs its stop callback", true));
		assertThat(record.component("orders").orElseThrow().outcome()).isEqualTo(Outcome.TIMEOUT);
		assertThat(record.component("done").orElseThrow()).satisfies((done) -> {
			assertThat(done.outcome()).isEqualTo(Outcome.COMPLETED);
			assertThat(done.cut()).isEmpty();
		});
		assertThat(record.unfinishedWork()).containsExactlyInAnyOrder(
				new UnfinishedWork("orders", "cut by the global ceiling"),
				new UnfinishedWork("hung", "cut by the global ceiling"));
		PreviousRun previous = builder().build().previousRun().orElseThrow();
		assertThat(previous.summary()).contains(": signal, cut by the global ceiling, ")
			.contains(", exit 129, work cut in 'orders', 'hung', 2 unfinished for a later run (")
			.contains("orders: cut by the global ceiling")
			.endsWith("hung: cut by the global ceiling)");
	}

	@Test
	void aHaltPastTheCeilingAfterACleanSequenceRewritesTheReportAsCutByTheCeilingWithWhatHeldTheProcess()
			throws Exception {
		LifecycleManager manager = builder().build();
		manager.registerPassive("orders", ComponentOptions.defaults(), (handle) -> {
		});
		manager.start();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		assertThat(manager.awaitTermination().clean()).isTrue();

		LifecycleHost.of(manager).recordHalt("thread \"main\" destroying bean 'stuckResource'");

		Map<String, Object> report = read(reports().get(0));
		assertThat(report).containsEntry("state", "ceiling")
			.containsEntry("exitCode", 129L)
			.containsEntry("clean", false);
		assertThat((String) report.get("diagnostics")).endsWith("thread \"main\" destroying bean 'stuckResource'");
		assertThat(builder().build().previousRun().orElseThrow().summary())
			.contains(": signal, cut by the global ceiling, ", ", exit 129");
	}

	@Test
	void aForcedExitIsRecordedBeforeTheHaltAndTheNextStartSaysForcedBySecondSignal() throws Exception {
		LifecycleManager forced = builder().build();
		forced.registerPassive("ingest", ComponentOptions.defaults().withPhase(20), (handle) -> {
		});
		forced.registerPassive("pipeline", ComponentOptions.defaults().withPhase(10), (handle) -> this.stuck.await());
		forced.start();
		forced.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		await().atMost(Duration.ofSeconds(10))
			.until(() -> !reports().isEmpty()
					&& "standard drain, phase 20".equals(read(reports().get(0)).get("lastStep")));

		assertThat(LifecycleHost.of(forced).forceExit()).isEqualTo(ExitCodes.FORCED);

		// The caller halts here; the report on disk already says so.
		Map<String, Object> left = read(reports().get(0));
		assertThat(left).containsEntry("state", "forced").containsEntry("exitCode", 128L).containsEntry("clean", false);
		PreviousRun previous = builder().build().previousRun().orElseThrow();
		assertThat(previous.unclean()).isTrue();
		assertThat(previous.summary())
			.contains("forced by a second signal: signal, last finished step " + "'standard drain, phase 20', exit 128")
			.doesNotContain("killed");
		this.stuck.countDown();
		forced.awaitTermination();
	}

	@Test
	void theNewestReportIsTheOneWithTheHighestSequenceWhateverTheClockSaid() throws Exception {
		// A run whose clock was a day ahead, written by an earlier release that named
		// reports by time.
		Path future = this.directory.resolve("lifecycle-orders.shutdown-29991231T000000.000Z.json");
		Files.writeString(future,
				"{\n  \"schema\": \"dev.lifecycle/shutdown-report\",\n  \"version\": 1,\n"
						+ "  \"initiatedAt\": \"2999-12-31T00:00:00Z\",\n  \"trigger\": {\"reason\": \"future\"},\n"
						+ "  \"state\": \"completed\",\n  \"exitCode\": 0,\n  \"clean\": true\n}\n");
		for (int run = 0; run < 3; run++) {
			LifecycleManager manager = builder().shutdownReports(2).build();
			manager.start();
			manager.triggerShutdown(run == 2 ? ShutdownReason.REQUESTED : ShutdownReason.SIGNAL, "run-" + run);
			manager.awaitTermination();
		}
		assertThat(reports()).extracting((path) -> path.getFileName().toString())
			.containsExactly("lifecycle-orders.shutdown-000000000002.json",
					"lifecycle-orders.shutdown-000000000003.json");
		assertThat(future).as("the future-dated report is pruned first").doesNotExist();
		assertThat(read(reports().get(1))).containsEntry("sequence", 3L);
		PreviousRun previous = builder().build().previousRun().orElseThrow();
		assertThat(previous.summary()).contains("): requested, clean");
	}

	@Test
	void aFileNamedLikeAReportThatIsNotOneIsNeitherReadNorDeleted() throws Exception {
		Path foreign = this.directory.resolve("lifecycle-orders.shutdown-000000000009.json");
		Files.writeString(foreign, "{\"token\": \"hunter2\"}");
		LogCapture logs = LogCapture.start();
		try {
			for (int run = 0; run < 2; run++) {
				LifecycleManager manager = builder().shutdownReports(1).build();
				manager.start();
				manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
				manager.awaitTermination();
			}
			assertThat(logs.messages()).noneSatisfy((line) -> assertThat(line).contains("hunter2"));
		}
		finally {
			logs.stop();
		}
		assertThat(foreign).hasContent("{\"token\": \"hunter2\"}");
		assertThat(reports()).last().satisfies((path) -> assertThat(read(path)).containsEntry("state", "completed"));
	}

	@Test
	void jsonRoundTripsTextThatNeedsEscaping() {
		Map<String, Object> value = Map.of("detail", "a \"quoted\"\nline\twith \\ and \ud800 and é", "n", 12L, "x",
				List.of(true, 1.5));
		assertThat(ReportJson.parse(ReportJson.write(value))).isEqualTo(
				Map.of("detail", "a \"quoted\"\nline\twith \\ and \ud800 and é", "n", 12L, "x", List.of(true, 1.5)));
	}

}
