package dev.lifecycle.sample.it;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A restart needs no more memory than the run that wrote the data: in a 64 MB heap, the
 * sample recovers 150,000 distinct long keys, half from its checkpoint and half replayed
 * from its log, and then serves and shuts down cleanly.
 */
class RecoveryMemoryIT {

	private static final List<String> SMALL_HEAP = List.of("-Xmx64m");

	private static final int KEYS = 150_000;

	@TempDir
	Path work;

	@Test
	void aRestartInA64MbHeapRecoversManyDistinctKeysFromTheCheckpointAndTheLog() throws Exception {
		Path data = this.work.resolve("data");
		try (ChildJvm first = SampleApp.launch(this.work.resolve("run-1"), data, SMALL_HEAP).awaitReady()) {
			for (int i = 0; i < 50; i++) {
				assertThat(
						first.post("/events", "{\"id\":\"http-" + i + "\",\"key\":\"http\",\"value\":2}").statusCode())
					.isEqualTo(202);
			}
			first.sigterm();
			assertThat(first.awaitExit(Duration.ofSeconds(60))).as("exit code; log:\n%s", first.log()).isZero();
		}
		Path database = data.resolve("events.db");
		// What a long run leaves: many distinct keys of 199 characters, the first half in
		// the checkpoint, the second half still only in the log.
		String key = "printf('%s-%08d', substr(hex(zeroblob(100)), 1, 190), n)";
		Verify.sql(database,
				"CREATE TEMP TABLE numbers AS WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c "
						+ "WHERE n < " + KEYS + ") SELECT n FROM c",
				"INSERT INTO event_log(event_id, key, value) SELECT 'bulk-' || n, " + key
						+ ", 1 FROM numbers WHERE n <= " + KEYS / 2,
				"INSERT INTO aggregates(key, sum, count) SELECT key, '1', 1 FROM event_log WHERE event_id LIKE 'bulk-%'",
				"UPDATE checkpoint SET log_offset = (SELECT max(offset) FROM event_log)",
				"INSERT INTO event_log(event_id, key, value) SELECT 'bulk-' || n, " + key
						+ ", 1 FROM numbers WHERE n > " + KEYS / 2);
		String firstKey = "0".repeat(190) + "-00000001";
		String lastKey = "0".repeat(190) + "-" + String.format("%08d", KEYS);

		try (ChildJvm second = SampleApp.launch(this.work.resolve("run-2"), data, SMALL_HEAP).awaitReady()) {
			assertThat(second.log()).doesNotContain("OutOfMemoryError")
				.contains("replayed " + KEYS / 2 + " event(s) from the log");
			assertThat(second.get("/counts/http").body()).contains("\"sum\":100,\"count\":50");
			assertThat(second.get("/counts/" + firstKey).body()).contains("\"sum\":1,\"count\":1");
			assertThat(second.get("/counts/" + lastKey).body()).contains("\"sum\":1,\"count\":1");
			assertThat(second.post("/events", "{\"id\":\"after\",\"key\":\"http\",\"value\":2}").statusCode())
				.isEqualTo(202);
			second.sigterm();
			assertThat(second.awaitExit(Duration.ofSeconds(120))).as("exit code; log:\n%s", second.log()).isZero();
		}
		assertThat(Verify.sqlLong(database, "SELECT count(*) FROM aggregates")).isEqualTo(KEYS + 1);
	}

}
