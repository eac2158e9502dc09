package dev.lifecycle.sample.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.lifecycle.sample.store.Aggregate;
import dev.lifecycle.sample.store.EventStore;
import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The files the sample trusts (findings 3, 4 and part of 5 and 6 of the hardening issue),
 * on real processes: a database it cannot use is refused at start with a message that
 * names the file and says what to do, and is left unchanged; one process per data
 * directory, with a lock the operating system releases on SIGKILL; temporary files of
 * backups cut short by a kill are removed at start.
 */
class FilesIT {

	private static final Duration START = Duration.ofSeconds(60);

	@TempDir
	Path work;

	@Test
	void aDatabaseWithANewerSchemaIsRefusedAtStartAndLeftUnchanged() throws Exception {
		Path data = this.work.resolve("data");
		Path file = data.resolve("events.db");
		try (EventStore store = new EventStore(file, "FULL", Duration.ofSeconds(5))) {
			store.append("e1", "k", 1);
		}
		// What a newer release might do: a new NOT NULL column and the next schema
		// version.
		Verify.sql(file, "ALTER TABLE event_log ADD COLUMN tenant TEXT NOT NULL DEFAULT 'x'",
				"PRAGMA user_version = 3");
		try (ChildJvm sample = SampleApp.launch(this.work.resolve("run"), data)) {
			assertThat(sample.awaitExit(START)).as("exit code").isNotZero();
			assertThat(sample.log()).contains("APPLICATION FAILED TO START")
				.contains("The event database " + file.toAbsolutePath().normalize() + " cannot be used")
				.contains("schema version 3, written by a newer release")
				.contains("Run the release that wrote it");
		}
		assertThat(Verify.sqlLong(file, "PRAGMA user_version")).isEqualTo(3);
		assertThat(Verify.rowsIn(file)).isEqualTo(1);
	}

	@Test
	void aForeignDatabaseIsRefusedAtStartAndGetsNoTablesAdded() throws Exception {
		Path data = this.work.resolve("data");
		Path file = data.resolve("events.db");
		Files.createDirectories(data);
		Verify.sql(file, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)",
				"INSERT INTO customers(name) VALUES ('Ada')");
		try (ChildJvm sample = SampleApp.launch(this.work.resolve("run"), data)) {
			assertThat(sample.awaitExit(START)).as("exit code").isNotZero();
			assertThat(sample.log()).contains("APPLICATION FAILED TO START")
				.contains(file.toAbsolutePath().normalize().toString())
				.contains("not this sample's event database")
				.contains("customers(id INTEGER, name TEXT)")
				.contains("Point sample.data-dir at");
		}
		assertThat(Verify.sqlLong(file, "SELECT count(*) FROM sqlite_master WHERE type = 'table'")).isEqualTo(1);
	}

	/**
	 * A checkpoint ahead of its log (a restored or copied file) is refused; rebuilding it
	 * from the log counts every event, old and new; a second process on the same data
	 * directory is refused while the first runs and starts once the first was killed; a
	 * killed backup's temporary file is removed.
	 */
	@Test
	void aCheckpointAheadOfItsLogIsRefusedAndOnlyOneProcessWorksOnADataDirectory() throws Exception {
		Path data = this.work.resolve("data");
		Path file = data.resolve("events.db");
		try (EventStore store = new EventStore(file, "FULL", Duration.ofSeconds(5))) {
			for (int i = 1; i <= 3; i++) {
				store.append("old-" + i, "k", 1);
			}
			store.writeCheckpoint(3, Map.of("k", new Aggregate(3, 3)));
		}
		Verify.sql(file, "UPDATE checkpoint SET log_offset = 100");

		try (ChildJvm refused = SampleApp.launch(this.work.resolve("run-refused"), data)) {
			assertThat(refused.awaitExit(START)).as("exit code").isNotZero();
			assertThat(refused.log()).contains("APPLICATION FAILED TO START")
				.contains(file.toAbsolutePath().normalize().toString())
				.contains("its checkpoint is at log offset 100 but its log ends at offset 3")
				.contains("--sample.db.rebuild-checkpoint=true");
		}
		assertThat(Verify.sqlLong(file, "SELECT log_offset FROM checkpoint")).isEqualTo(100);

		// The run marker where the sample's configuration puts it by default: in the data
		// directory.
		String marker = "--lifecycle.run-marker.path=" + data.resolve("lifecycle-sample-app.running");
		ChildJvm first = SampleApp
			.launch(this.work.resolve("run-1"), data, "--sample.db.rebuild-checkpoint=true", marker)
			.awaitReady();
		try {
			for (int i = 1; i <= 5; i++) {
				assertThat(first.post("/events", "{\"id\":\"new-" + i + "\",\"key\":\"k\",\"value\":1}").statusCode())
					.isEqualTo(202);
			}
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(first.get("/counts/k").body()).contains("\"sum\":8,\"count\":8"));

			try (ChildJvm second = SampleApp.launch(this.work.resolve("run-2"), data, marker)) {
				assertThat(second.awaitExit(START)).as("exit code of the second process").isNotZero();
				assertThat(second.log()).contains("APPLICATION FAILED TO START")
					.contains("is in use by another process (pid " + first.pid() + ")")
					.contains("--sample.data-dir");
				// It touched nothing of the first one's: not the database, not its run
				// marker.
				assertThat(second.log()).doesNotContain("Event store: opened")
					.doesNotContain("the previous process did not finish its shutdown");
			}
			assertThat(data.resolve("lifecycle-sample-app.running")).as("the first process's run marker").exists();
			assertThat(first.get("/counts/k").statusCode()).isEqualTo(200);
			first.sigkill();
			first.awaitExit(Duration.ofSeconds(10));
		}
		finally {
			first.close();
		}

		// A backup killed half-way leaves its temporary file behind.
		Path leftover = data.resolve("backups").resolve("events-20260101T000000.000Z.db.tmp");
		Files.createDirectories(leftover.getParent());
		Files.write(leftover, new byte[4096]);
		try (ChildJvm third = SampleApp.launch(this.work.resolve("run-3"), data, marker).awaitReady()) {
			assertThat(third.log()).as("the kill of the first process is detected")
				.contains("the previous process did not finish its shutdown");
			assertThat(leftover).doesNotExist();
			assertThat(third.log()).contains("removed " + leftover.toAbsolutePath().normalize());
			assertThat(third.get("/counts/k").body()).contains("\"sum\":8,\"count\":8");
			third.sigterm();
			assertThat(third.awaitExit(Duration.ofSeconds(60))).isZero();
		}
	}

}
