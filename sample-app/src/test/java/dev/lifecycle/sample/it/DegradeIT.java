package dev.lifecycle.sample.it;

import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Degrade, don't die (finding 5 of the hardening issue), on real processes: a database
 * locked by another process and a full disk (a real, size-limited tmpfs) turn writes into
 * 503/507 with {@code Retry-After} while reads and probes keep answering; a failing
 * periodic checkpoint does not end the process; a restart on a full disk starts and
 * serves reads; writes resume by themselves when the cause goes away; and nothing
 * acknowledged is lost. {@code GET /counts} answers a page at a time.
 */
class DegradeIT {

	@TempDir
	Path work;

	private Path mounted;

	@AfterEach
	void unmount() throws Exception {
		if (this.mounted != null) {
			new ProcessBuilder("umount", "-l", this.mounted.toString()).inheritIO()
				.start()
				.waitFor(30, TimeUnit.SECONDS);
		}
	}

	@Test
	void aLockedDatabaseTurnsWritesInto503AfterTheBusyTimeoutWhileReadsAndProbesGoOn() throws Exception {
		Path data = this.work.resolve("data");
		try (SampleProcess sample = SampleProcess
			.start(this.work.resolve("run"), data, "--sample.db.busy-timeout=1s",
					"--sample.pipeline.checkpoint-interval=1s")
			.awaitReady()) {
			for (int i = 1; i <= 30; i++) {
				assertThat(post(sample, "k" + (100 + i), 1).statusCode()).isEqualTo(202);
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> sample.get("/counts/k130").statusCode() == 200);
			countsArePaged(sample);

			try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + data.resolve("events.db"));
					Statement statement = other.createStatement()) {
				// Events the pipeline has consumed but not checkpointed when the lock is
				// taken.
				for (int i = 1; i <= 5; i++) {
					assertThat(post(sample, "during-" + i, 1).statusCode()).isEqualTo(202);
				}
				statement.execute("BEGIN IMMEDIATE");
				long start = System.nanoTime();
				HttpResponse<String> refused = post(sample, "refused", 1);
				long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
				assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
				assertThat(refused.headers().firstValue("Retry-After")).isPresent();
				assertThat(refused.body()).contains("database_busy");
				assertThat(millis).as("the append waited for the busy timeout").isGreaterThanOrEqualTo(900);
				// The periodic checkpoint fails meanwhile (SQLITE_BUSY), and the process
				// lives on.
				await().atMost(Duration.ofSeconds(15))
					.until(() -> sample.log().contains("Pipeline: checkpoint at offset"));
				assertThat(sample.log()).contains("failed");
				assertThat(sample.managementStatus("/actuator/health/liveness")).isEqualTo(200);
				assertThat(sample.managementStatus("/actuator/health/readiness")).isEqualTo(200);
				assertThat(sample.get("/counts/during-5").statusCode()).isEqualTo(200);
				assertThat(sample.isAlive()).isTrue();
				statement.execute("ROLLBACK");
			}
			await().atMost(Duration.ofSeconds(15)).until(() -> post(sample, "after-lock", 1).statusCode() == 202);
			await().atMost(Duration.ofSeconds(30)).until(() -> sample.log().contains("written after"));
			assertThat(post(sample, "refused", 1).statusCode()).as("the refused event can be retried").isEqualTo(202);
			sample.sigterm();
			assertThat(sample.awaitExit(Duration.ofSeconds(60))).isZero();
		}
		assertThat(Verify.rowsIn(data.resolve("events.db"))).isEqualTo(30 + 5 + 2);
	}

	private void countsArePaged(SampleProcess sample) throws IOException {
		JsonNode first = Verify.JSON.readTree(sample.get("/counts?prefix=k1&limit=10").body());
		assertThat(first.get("keys").size()).isEqualTo(10);
		assertThat(first.get("next").stringValue()).isEqualTo("k110");
		JsonNode second = Verify.JSON.readTree(sample.get("/counts?prefix=k1&limit=10&after=k110").body());
		assertThat(second.get("keys").propertyNames()).first().isEqualTo("k111");
		Map<String, JsonNode> all = new LinkedHashMap<>();
		Verify.allCounts(sample, "k1", all);
		assertThat(all).hasSize(30);
		assertThat(sample.get("/counts?limit=0").statusCode()).isEqualTo(400);
		assertThat(sample.get("/counts?limit=10001").body()).contains("limit must be an integer between 1 and 10000");
	}

	@Test
	void aFullDiskTurnsWritesInto507AndARestartOnItStillStartsAndRecoversByItself() throws Exception {
		Path disk = mountSmallFileSystem();
		Path data = disk.resolve("data");
		Map<String, Long> acked = new HashMap<>();
		String[] sizing = { "--sample.backup.dir=" + this.work.resolve("backups"),
				"--sample.backup.fallback-dir=" + this.work.resolve("backups-local"),
				"--sample.pipeline.checkpoint-interval=500ms" };
		Path filler = disk.resolve("filler");
		try (SampleProcess sample = SampleProcess.start(this.work.resolve("run-1"), data, sizing).awaitReady()) {
			for (int i = 1; i <= 20; i++) {
				ack(sample, acked, "before-" + i);
			}
			fill(filler);
			// Pages free inside the WAL may still take a few events; then the disk is
			// full for good.
			int[] seq = { 0 };
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				HttpResponse<String> response = post(sample, "full-" + (++seq[0]), 1);
				if (response.statusCode() == 202) {
					acked.put("full-" + seq[0], 1L);
					return false;
				}
				assertThat(response.statusCode()).as("%s\n%s", response.body(), sample.log()).isEqualTo(507);
				assertThat(response.headers().firstValue("Retry-After")).isPresent();
				assertThat(response.body()).contains("storage_full");
				return true;
			});
			await().atMost(Duration.ofSeconds(20))
				.until(() -> sample.log().contains("Pipeline: checkpoint at offset")
						&& sample.log().contains("failed"));
			assertThat(sample.managementStatus("/actuator/health/liveness")).isEqualTo(200);
			assertThat(sample.managementStatus("/actuator/health/readiness")).isEqualTo(200);
			assertThat(sample.get("/counts/before-20").statusCode()).isEqualTo(200);
			assertThat(sample.isAlive()).as("the failing checkpoint did not end the process").isTrue();
			sample.sigkill();
			sample.awaitExit(Duration.ofSeconds(10));
		}
		// Restart on the full disk after the crash.
		try (SampleProcess sample = SampleProcess.start(this.work.resolve("run-2"), data, sizing).awaitReady()) {
			assertThat(post(sample, "still-full", 1).statusCode()).isEqualTo(507);
			assertThat(sample.managementStatus("/actuator/health/liveness")).isEqualTo(200);
			everyAckedEventIsCounted(sample, acked);
			Files.delete(filler);
			await().atMost(Duration.ofSeconds(20)).until(() -> post(sample, "after-space", 1).statusCode() == 202);
			acked.put("after-space", 1L);
			await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
				JsonNode counts = Verify.JSON.readTree(sample.get("/counts?limit=1").body());
				assertThat(counts.get("checkpointOffset").longValue()).isEqualTo(counts.get("offset").longValue());
			});
			everyAckedEventIsCounted(sample, acked);
			sample.sigterm();
			assertThat(sample.awaitExit(Duration.ofSeconds(60))).as("exit code once the disk has space").isZero();
		}
		// Restart on a full disk after a clean shutdown: SQLite cannot even create the
		// index a WAL
		// database needs to be read, so the store opens read-only, and becomes writable
		// by itself.
		fill(filler);
		try (SampleProcess sample = SampleProcess.start(this.work.resolve("run-3"), data, sizing).awaitReady()) {
			assertThat(sample.log()).contains("READ-ONLY");
			everyAckedEventIsCounted(sample, acked);
			HttpResponse<String> refused = post(sample, "read-only", 1);
			assertThat(refused.statusCode()).as(refused.body()).isEqualTo(507);
			assertThat(refused.headers().firstValue("Retry-After")).isPresent();
			Files.delete(filler);
			await().atMost(Duration.ofSeconds(20)).until(() -> post(sample, "read-only", 1).statusCode() == 202);
			acked.put("read-only", 1L);
			everyAckedEventIsCounted(sample, acked);
			sample.sigterm();
			assertThat(sample.awaitExit(Duration.ofSeconds(60))).isZero();
		}
		assertThat(Verify.rowsIn(data.resolve("events.db"))).isEqualTo(acked.size());
	}

	private static void everyAckedEventIsCounted(SampleProcess sample, Map<String, Long> acked) throws Exception {
		for (String id : acked.keySet()) {
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(sample.get("/counts/" + id).body()).as(id).contains("\"sum\":1,\"count\":1"));
		}
	}

	private static void ack(SampleProcess sample, Map<String, Long> acked, String id) throws IOException {
		assertThat(post(sample, id, 1).statusCode()).isEqualTo(202);
		acked.put(id, 1L);
	}

	private static HttpResponse<String> post(SampleProcess sample, String id, long value) throws IOException {
		return sample.post("/events", "{\"id\":\"" + id + "\",\"key\":\"" + id + "\",\"value\":" + value + "}");
	}

	/** Writes until the file system has no space left. */
	private static void fill(Path filler) throws IOException {
		byte[] block = new byte[64 * 1024];
		try (OutputStream out = Files.newOutputStream(filler)) {
			while (true) {
				out.write(block);
			}
		}
		catch (IOException ex) {
			assertThat(ex.getMessage()).contains("No space left");
		}
	}

	/**
	 * A 16 MB tmpfs: the real kernel's ENOSPC, not a simulation. Needs root (CI runs as
	 * root); skipped with the reason otherwise.
	 */
	private Path mountSmallFileSystem() throws Exception {
		Path disk = Files.createDirectories(this.work.resolve("disk"));
		boolean root = "root".equals(System.getProperty("user.name"));
		assumeThat(root)
			.as("mounting a size-limited tmpfs needs root; this test runs as %s", System.getProperty("user.name"))
			.isTrue();
		Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", disk.toString())
			.redirectErrorStream(true)
			.start();
		String output = new String(mount.getInputStream().readAllBytes());
		assumeThat(mount.waitFor()).as("mount -t tmpfs failed: %s", output).isZero();
		this.mounted = disk;
		return disk;
	}

}
