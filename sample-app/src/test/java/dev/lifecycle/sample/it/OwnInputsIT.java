package dev.lifecycle.sample.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.test.ShutdownReports;
import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static dev.lifecycle.test.LifecycleAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lifecycle's own inputs, on real processes: its durations, its files and its signals
 * never hurt the service or lie about it. A setting out of range, and a path that holds
 * something Lifecycle did not write, fail the start naming the property and leave what is
 * there as it was; a forced exit is recorded as one; reports are ordered by sequence, not
 * by the clock; a stale pre-stop entry that cannot be removed is ignored.
 */
class OwnInputsIT {

	private static final Duration START = Duration.ofSeconds(60);

	@TempDir
	Path work;

	@ParameterizedTest(name = "{0}")
	@CsvSource({ "lifecycle.global-shutdown-timeout=1000000d, lifecycle.global-shutdown-timeout",
			"lifecycle.components.pipeline.graceful-shutdown=1000000d, lifecycle.components.pipeline.graceful-shutdown",
			"lifecycle.health-poll-interval=1000000d, lifecycle.health-poll-interval",
			"lifecycle.drain-delay=1000000d, lifecycle.drain-delay" })
	void aDurationBeyondADayFailsTheStartNamingThePropertyAndTheMaximum(String setting, String property)
			throws Exception {
		try (ChildJvm sample = SampleApp.launch(this.work, this.work.resolve("data"), "--" + setting)) {
			assertThat(sample.awaitExit(START)).as("exit code; log:\n%s", sample.log()).isEqualTo(1);
			assertThat(sample.log()).contains("APPLICATION FAILED TO START")
				.contains("Lifecycle cannot start: '" + property + "' must be at most PT24H (1 day)")
				.contains("Set '" + property + "' to at most 24h")
				.doesNotContain("ArithmeticException");
		}
	}

	@Test
	void aForcedExitIsRecordedAsForcedAndTheNextStartSaysSo() throws Exception {
		Path data = this.work.resolve("data");
		try (ChildJvm sample = SampleApp
			.launch(this.work, data, "--lifecycle.drain-delay=30s", "--lifecycle.global-shutdown-timeout=60s")
			.awaitReady()) {
			sample.sigterm();
			await().atMost(Duration.ofSeconds(5))
				.pollInterval(Duration.ofMillis(25))
				.until(() -> sample.status("/actuator/health/readiness") == 503);
			sample.sigterm();
			assertThat(sample.awaitExit(Duration.ofSeconds(15))).as("exit code; log:\n%s", sample.log()).isEqualTo(128);
		}
		assertThat(ShutdownReports.all(this.work.resolve("running"))).singleElement()
			.satisfies(
					(report) -> assertThat(report).hasState(ShutdownRecord.State.FORCED).hasExitCode(128).isNotClean());
		try (ChildJvm next = SampleApp.launch(this.work, data).awaitReady()) {
			assertThat(next.log()).contains("forced by a second signal: signal").doesNotContain("killed during it");
			next.sigterm();
			assertThat(next.awaitExit(START)).isZero();
		}
	}

	@Test
	void theNextStartSummarisesTheLastRunEvenAfterOneWithTheClockADayAhead() throws Exception {
		Path data = this.work.resolve("data");
		// The report a run with its clock a day ahead would have left, named as it then
		// was, by the time.
		Path future = this.work.resolve("running.shutdown-" + "29991231T000000.000Z" + ".json");
		Files.writeString(future, "{\n  \"schema\": \"dev.lifecycle/shutdown-report\",\n  \"version\": 1,\n"
				+ "  \"initiatedAt\": \"2999-12-31T00:00:00Z\",\n  \"trigger\": {\"reason\": \"from-the-future\"},\n"
				+ "  \"state\": \"completed\",\n  \"exitCode\": 0,\n  \"clean\": true\n}\n");
		for (int run = 0; run < 2; run++) {
			try (ChildJvm sample = SampleApp.launch(this.work, data).awaitReady()) {
				if (run == 1) {
					assertThat(sample.log()).contains("Lifecycle: previous shutdown (")
						.contains("): signal, clean")
						.doesNotContain("from-the-future");
				}
				sample.sigterm();
				assertThat(sample.awaitExit(START)).isZero();
			}
		}
		assertThat(reports()).extracting((path) -> path.getFileName().toString())
			.contains("running.shutdown-000000000001.json", "running.shutdown-000000000002.json");
	}

	@Test
	void aRunMarkerPathHoldingASecretFailsTheStartAndTheSecretIsNeitherLoggedNorTouched() throws Exception {
		Path secret = Files.writeString(this.work.resolve("credentials"), "db.password=hunter2\n");
		try (ChildJvm sample = SampleApp.launch(this.work, this.work.resolve("data"),
				"--lifecycle.run-marker.path=" + secret)) {
			assertThat(sample.awaitExit(START)).as("exit code; log:\n%s", sample.log()).isEqualTo(1);
			assertThat(sample.log())
				.contains("Lifecycle cannot start: 'lifecycle.run-marker.path' (" + secret
						+ ") holds a file that is not a Lifecycle run marker")
				.doesNotContain("hunter2");
		}
		assertThat(secret).hasContent("db.password=hunter2\n");
	}

	@Test
	void aRunMarkerOrPreStopPathAtTheDatabaseFailsTheStartAndTheDatabaseKeepsEveryEvent() throws Exception {
		Path data = this.work.resolve("data");
		Path database = data.resolve("events.db");
		try (ChildJvm sample = SampleApp.launch(this.work.resolve("run-0"), data).awaitReady()) {
			for (int i = 0; i < 20; i++) {
				assertThat(sample.post("/events", "{\"id\":\"e" + i + "\",\"key\":\"k\",\"value\":1}").statusCode())
					.isEqualTo(202);
			}
			sample.sigterm();
			assertThat(sample.awaitExit(START)).isZero();
		}
		long size = Files.size(database);
		try (ChildJvm marker = SampleApp.launch(this.work.resolve("run-1"), data,
				"--lifecycle.run-marker.path=" + database)) {
			assertThat(marker.awaitExit(START)).as("exit code; log:\n%s", marker.log()).isEqualTo(1);
			assertThat(marker.log()).contains("'lifecycle.run-marker.path' (" + database + ") holds a file that is not "
					+ "a Lifecycle run marker");
		}
		try (ChildJvm preStop = SampleApp.launch(this.work.resolve("run-2"), data,
				"--lifecycle.pre-stop.path=" + database)) {
			assertThat(preStop.awaitExit(START)).as("exit code; log:\n%s", preStop.log()).isEqualTo(1);
			assertThat(preStop.log()).contains("'lifecycle.pre-stop.path' (" + database + ") holds a file with content")
				.contains("touch");
		}
		assertThat(database).hasSize(size);
		assertThat(Verify.rowsIn(database)).isEqualTo(20);
		try (ChildJvm after = SampleApp.launch(this.work.resolve("run-3"), data).awaitReady()) {
			assertThat(after.get("/counts/k").body()).contains("\"sum\":20,\"count\":20");
			after.sigterm();
			assertThat(after.awaitExit(START)).isZero();
		}
	}

	@Test
	void aDirectoryAtTheRunMarkerPathFailsTheStartNamingTheProperty() throws Exception {
		Path directory = Files.createDirectories(this.work.resolve("marker-dir"));
		try (ChildJvm sample = SampleApp.launch(this.work, this.work.resolve("data"),
				"--lifecycle.run-marker.path=" + directory)) {
			assertThat(sample.awaitExit(START)).as("exit code; log:\n%s", sample.log()).isEqualTo(1);
			assertThat(sample.log()).contains("'lifecycle.run-marker.path' (" + directory + ") is a directory")
				.doesNotContain("the previous process did not finish its shutdown");
		}
		assertThat(directory).isEmptyDirectory();
	}

	@Test
	void aStalePreStopFileThatCannotBeDeletedIsIgnoredAndTheServiceKeepsRunning() throws Exception {
		Path preStop = Files.createDirectories(this.work.resolve("prestop")).resolve("shutdown");
		Files.createFile(preStop);
		Files.setLastModifiedTime(preStop, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
		Undeletable undeletable = Undeletable.make(preStop);
		try (ChildJvm sample = SampleApp
			.launch(this.work, this.work.resolve("data"), "--lifecycle.pre-stop.path=" + preStop)
			.awaitReady()) {
			assertThat(sample.log()).contains("cannot remove the pre-stop file left from an earlier run at " + preStop);
			await().during(Duration.ofSeconds(3))
				.atMost(Duration.ofSeconds(10))
				.until(() -> sample.status("/actuator/health/readiness") == 200);
			assertThat(sample.isAlive()).isTrue();
			sample.sigterm();
			assertThat(sample.awaitExit(START)).as("exit code; log:\n%s", sample.log()).isZero();
		}
		finally {
			undeletable.undo();
		}
	}

	@Test
	void aStaleNonEmptyPreStopDirectoryIsIgnoredAndOnlyAFreshPreStopFileShutsDown() throws Exception {
		Path preStop = Files.createDirectories(this.work.resolve("shutdown"));
		Files.writeString(preStop.resolve("left"), "x");
		Files.setLastModifiedTime(preStop, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
		try (ChildJvm sample = SampleApp.launch(this.work, this.work.resolve("data")).awaitReady()) {
			assertThat(sample.log())
				.contains("cannot remove the pre-stop directory left from an earlier run at " + preStop);
			await().during(Duration.ofSeconds(3))
				.atMost(Duration.ofSeconds(10))
				.until(() -> sample.status("/actuator/health/readiness") == 200);
			assertThat(preStop.resolve("left")).hasContent("x");
			Files.delete(preStop.resolve("left"));
			Files.delete(preStop);
			Files.createFile(preStop);
			assertThat(sample.awaitExit(START)).as("exit code; log:\n%s", sample.log()).isZero();
			assertThat(sample.log()).contains("pre-stop file " + preStop + " appeared");
		}
	}

	@Test
	void sixEventsPipelinedOnOneConnectionDuringTheDrainAreAllAnsweredAndEveryAcknowledgedOneIsCounted()
			throws Exception {
		Path data = this.work.resolve("data");
		String answers;
		try (ChildJvm sample = SampleApp.launch(this.work, data, "--lifecycle.drain-delay=5s").awaitReady()) {
			sample.sigterm();
			await().atMost(Duration.ofSeconds(5))
				.pollInterval(Duration.ofMillis(25))
				.until(() -> sample.status("/actuator/health/readiness") == 503);
			StringBuilder requests = new StringBuilder();
			for (int i = 0; i < 6; i++) {
				String body = "{\"id\":\"p" + i + "\",\"key\":\"piped\",\"value\":1}";
				requests.append("POST /events HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n")
					.append("Content-Length: ")
					.append(body.length())
					.append("\r\n\r\n")
					.append(body);
			}
			try (java.net.Socket socket = new java.net.Socket("127.0.0.1", sample.port())) {
				socket.setSoTimeout(10_000);
				socket.getOutputStream()
					.write(requests.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
				// The server answers and then closes the connection: read to its end.
				answers = new String(socket.getInputStream().readAllBytes(),
						java.nio.charset.StandardCharsets.US_ASCII);
			}
			assertThat(sample.awaitExit(START)).as("exit code; log:\n%s", sample.log()).isZero();
		}
		java.util.regex.Matcher status = java.util.regex.Pattern.compile("HTTP/1\\.1 (\\d{3})").matcher(answers);
		List<String> statuses = new ArrayList<>();
		while (status.find()) {
			statuses.add(status.group(1));
		}
		assertThat(statuses).as("answers:\n%s", answers)
			.hasSize(6)
			.allMatch((code) -> code.equals("202") || code.equals("503"));
		long acknowledged = statuses.stream().filter("202"::equals).count();
		try (ChildJvm next = SampleApp.launch(this.work, data).awaitReady()) {
			assertThat(next.get("/counts/piped").body()).contains("\"count\":" + acknowledged);
			next.sigterm();
			assertThat(next.awaitExit(START)).isZero();
		}
	}

	private List<Path> reports() {
		return ShutdownRecord.files(this.work.resolve("running"));
	}

	/**
	 * A file nobody may delete: immutable where the file system and the user allow it
	 * (root on ext4, say), else in a directory nobody may write to.
	 */
	private record Undeletable(Path file, boolean immutable) {

		static Undeletable make(Path file) throws Exception {
			if (new ProcessBuilder("chattr", "+i", file.toString()).start().waitFor() == 0) {
				return new Undeletable(file, true);
			}
			file.getParent().toFile().setWritable(false, false);
			return new Undeletable(file, false);
		}

		void undo() throws Exception {
			if (this.immutable) {
				new ProcessBuilder("chattr", "-i", this.file.toString()).start().waitFor();
			}
			else {
				this.file.getParent().toFile().setWritable(true, false);
			}
		}

	}

}
