package dev.lifecycle.sample.store;

import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class EventStoreTest {

	@TempDir
	Path dir;

	private EventStore store;

	@BeforeEach
	void open() {
		this.store = new EventStore(this.dir.resolve("events.db"), "FULL", Duration.ofSeconds(5));
	}

	@AfterEach
	void close() {
		this.store.close();
	}

	@Test
	void appendsGetIncreasingOffsetsAndRepeatsGetTheOriginalOffset() throws Exception {
		AppendResult first = this.store.append("a", "k", 1);
		AppendResult second = this.store.append("b", "k", 2);
		AppendResult repeat = this.store.append("a", "k", 1);
		assertThat(first).isEqualTo(new AppendResult(1, AppendResult.Outcome.APPENDED));
		assertThat(second).isEqualTo(new AppendResult(2, AppendResult.Outcome.APPENDED));
		assertThat(repeat).isEqualTo(new AppendResult(1, AppendResult.Outcome.DUPLICATE));
		assertThat(this.store.readAfter(0, 10)).extracting(LoggedEvent::id).containsExactly("a", "b");
	}

	@Test
	void reusingAnIdForADifferentEventIsAConflictAndWritesNothing() throws Exception {
		this.store.append("a", "k", 1);
		assertThat(this.store.append("a", "k", 2).outcome()).isEqualTo(AppendResult.Outcome.CONFLICT);
		assertThat(this.store.append("a", "other", 1).outcome()).isEqualTo(AppendResult.Outcome.CONFLICT);
		assertThat(this.store.lastOffset()).isEqualTo(1);
	}

	@Test
	void concurrentAppendsAreAllCommittedOnceWithDistinctOffsets() throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(16);
		Map<String, Long> offsets = new ConcurrentHashMap<>();
		List<Future<?>> futures = new ArrayList<>();
		long start = System.nanoTime();
		for (int t = 0; t < 16; t++) {
			int thread = t;
			futures.add(pool.submit(() -> {
				for (int i = 0; i < 300; i++) {
					String id = thread + "-" + i;
					offsets.put(id, this.store.append(id, "k" + (i % 7), 1).offset());
					// every tenth event is retried, as a client would after a lost
					// response
					if (i % 10 == 0) {
						assertThat(this.store.append(id, "k" + (i % 7), 1).offset()).isEqualTo(offsets.get(id));
					}
				}
				return null;
			}));
		}
		for (Future<?> future : futures) {
			future.get(60, TimeUnit.SECONDS);
		}
		pool.shutdown();
		long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		System.out.printf("4800 acknowledged appends (+480 retries) from 16 threads in %d ms%n", millis);
		assertThat(new HashSet<>(offsets.values())).hasSize(4800);
		assertThat(this.store.lastOffset()).isEqualTo(4800);
		List<LoggedEvent> all = this.store.readAfter(0, 10_000);
		assertThat(all).hasSize(4800);
		Set<String> ids = new HashSet<>();
		all.forEach((e) -> ids.add(e.id()));
		assertThat(ids).isEqualTo(offsets.keySet());
	}

	@Test
	void checkpointStoresChangedAggregatesAndOffsetTogether() throws Exception {
		this.store.writeCheckpoint(5, Map.of("a", new Aggregate(10, 2), "b", new Aggregate(1, 1)));
		this.store.writeCheckpoint(7, Map.of("a", new Aggregate(12, 3)));
		Checkpoint checkpoint = this.store.loadCheckpoint();
		assertThat(checkpoint.offset()).isEqualTo(7);
		assertThat(checkpoint.aggregates()).containsOnly(Map.entry("a", new Aggregate(12, 3)),
				Map.entry("b", new Aggregate(1, 1)));
		assertThat(checkpoint.updatedAt()).isNotBlank();
	}

	@Test
	void emptyDatabaseHasAnEmptyCheckpoint() {
		assertThat(this.store.loadCheckpoint().offset()).isZero();
		assertThat(this.store.loadCheckpoint().aggregates()).isEmpty();
	}

	@Test
	void backupIsACompleteDatabaseWithTheSameCheckpointAndLog() throws Exception {
		this.store.append("a", "k", 3);
		this.store.writeCheckpoint(1, Map.of("k", new Aggregate(3, 1)));
		this.store.append("b", "k", 4);
		Path backup = this.store.backupTo(this.dir.resolve("backups"), "b1.db");
		assertThat(backup).exists();
		assertThat(this.dir.resolve("backups").resolve("b1.db.tmp")).doesNotExist();
		try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + backup)) {
			Checkpoint copy = EventStore.readCheckpoint(connection);
			assertThat(copy.offset()).isEqualTo(1);
			assertThat(copy.aggregates()).isEqualTo(Map.of("k", new Aggregate(3, 1)));
			try (Statement statement = connection.createStatement();
					ResultSet rows = statement.executeQuery("SELECT count(*) FROM event_log")) {
				rows.next();
				assertThat(rows.getLong(1)).isEqualTo(2);
			}
		}
	}

	@Test
	void appendsAfterCloseFailAndReopeningKeepsEverything() throws Exception {
		this.store.append("a", "k", 1);
		this.store.close();
		assertThatExceptionOfType(StoreException.class).isThrownBy(() -> this.store.append("b", "k", 1));
		this.store = new EventStore(this.dir.resolve("events.db"), "FULL", Duration.ofSeconds(5));
		assertThat(this.store.lastOffset()).isEqualTo(1);
		assertThat(this.store.append("a", "k", 1).outcome()).isEqualTo(AppendResult.Outcome.DUPLICATE);
	}

	@Test
	void sumsOfAnySizeAreStoredAndReadExactly() throws Exception {
		BigInteger huge = BigInteger.valueOf(Long.MAX_VALUE).multiply(BigInteger.valueOf(1000)).negate();
		this.store.writeCheckpoint(0, Map.of("k", new Aggregate(huge, 0)));
		assertThat(this.store.loadCheckpoint().aggregates().get("k").sum()).isEqualTo(huge);
	}

	@Test
	void anIdThatIsNotValidUnicodeIsNeverStored() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.append("a\ud800", "k", 1))
			.withMessageContaining("not valid Unicode");
		assertThat(this.store.lastOffset()).isZero();
	}

	@Test
	void aNewDatabaseIsStampedWithTheApplicationIdAndSchemaVersion() throws Exception {
		assertThat(sqlLong("PRAGMA application_id")).isEqualTo(EventStore.APPLICATION_ID);
		assertThat(sqlLong("PRAGMA user_version")).isEqualTo(EventStore.SCHEMA_VERSION);
	}

	@Test
	void theUnstampedLayoutOfEarlierReleasesIsMigratedWithEverythingInIt() throws Exception {
		this.store.close();
		Path legacy = this.dir.resolve("legacy.db");
		sql(legacy,
				"CREATE TABLE event_log (offset INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT UNIQUE NOT NULL, "
						+ "key TEXT NOT NULL, value INTEGER NOT NULL)",
				"CREATE TABLE aggregates (key TEXT PRIMARY KEY, sum INTEGER, count INTEGER)",
				"CREATE TABLE checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), log_offset INTEGER NOT NULL, updated_at TEXT)",
				"INSERT INTO event_log(event_id, key, value) VALUES ('p1', 'victim', -9223372036854775808), "
						+ "('p2', 'victim', -1), ('p3', 'other', 7)",
				"INSERT INTO aggregates VALUES ('victim', -9223372036854775808, 1)",
				"INSERT INTO checkpoint VALUES (1, 1, 'then')");
		this.store = new EventStore(legacy, "FULL", Duration.ofSeconds(5));
		Checkpoint checkpoint = this.store.loadCheckpoint();
		assertThat(checkpoint.offset()).isEqualTo(1);
		assertThat(checkpoint.aggregates()).containsExactly(Map.entry("victim", new Aggregate(Long.MIN_VALUE, 1)));
		assertThat(this.store.readAfter(1, 10)).extracting(LoggedEvent::id).containsExactly("p2", "p3");
		this.store.writeCheckpoint(2,
				Map.of("victim", new Aggregate(BigInteger.valueOf(Long.MIN_VALUE).subtract(BigInteger.ONE), 2)));
		assertThat(this.store.loadCheckpoint().aggregates().get("victim").sum())
			.isEqualTo(BigInteger.valueOf(Long.MIN_VALUE).subtract(BigInteger.ONE));
	}

	@Test
	void aNewerSchemaIsRefusedNamingTheFileAndLeftUnchanged() throws Exception {
		this.store.append("a", "k", 1);
		this.store.close();
		Path file = this.dir.resolve("events.db");
		sql(file, "ALTER TABLE event_log ADD COLUMN tenant TEXT NOT NULL DEFAULT 'x'",
				"PRAGMA user_version = " + (EventStore.SCHEMA_VERSION + 1));
		assertThatExceptionOfType(UnusableDatabaseException.class)
			.isThrownBy(() -> this.store = new EventStore(file, "FULL", Duration.ofSeconds(5)))
			.withMessageContaining(file.toString())
			.withMessageContaining("schema version " + (EventStore.SCHEMA_VERSION + 1))
			.withMessageContaining("newer release");
		assertThat(sqlLong(file, "PRAGMA user_version")).isEqualTo(EventStore.SCHEMA_VERSION + 1);
		this.store = new EventStore(this.dir.resolve("other.db"), "FULL", Duration.ofSeconds(5));
	}

	@Test
	void aForeignDatabaseIsRefusedAndGetsNoTablesAdded() throws Exception {
		Path foreign = this.dir.resolve("foreign.db");
		sql(foreign, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
		assertThatExceptionOfType(UnusableDatabaseException.class)
			.isThrownBy(() -> new EventStore(foreign, "FULL", Duration.ofSeconds(5)))
			.withMessageContaining(foreign.toString())
			.withMessageContaining("not this sample's event database")
			.withMessageContaining("customers");
		assertThat(sqlLong(foreign, "SELECT count(*) FROM sqlite_master WHERE type = 'table'")).isEqualTo(1);
	}

	@Test
	void aCheckpointAheadOfItsLogIsRefusedAndRebuildingRecountsFromTheLog() throws Exception {
		this.store.append("a", "k", 1);
		this.store.append("b", "k", 2);
		this.store.writeCheckpoint(2, Map.of("k", new Aggregate(3, 2)));
		this.store.close();
		Path file = this.dir.resolve("events.db");
		sql(file, "UPDATE checkpoint SET log_offset = 50");
		assertThatExceptionOfType(UnusableDatabaseException.class)
			.isThrownBy(() -> this.store = new EventStore(file, "FULL", Duration.ofSeconds(5)))
			.withMessageContaining(file.toString())
			.withMessageContaining("checkpoint is at log offset 50 but its log ends at offset 2")
			.withMessageContaining("--sample.db.rebuild-checkpoint=true");
		this.store = new EventStore(file, "FULL", Duration.ofSeconds(5), true);
		assertThat(this.store.loadCheckpoint()).isEqualTo(Checkpoint.empty());
		assertThat(this.store.readAfter(0, 10)).hasSize(2);
	}

	@Test
	void aCheckpointOfAnotherLogIsRefused() throws Exception {
		this.store.append("a", "k", 1);
		this.store.writeCheckpoint(1, Map.of("k", new Aggregate(1, 1), "x", new Aggregate(9, 4)));
		this.store.close();
		Path file = this.dir.resolve("events.db");
		assertThatExceptionOfType(UnusableDatabaseException.class)
			.isThrownBy(() -> this.store = new EventStore(file, "FULL", Duration.ofSeconds(5)))
			.withMessageContaining("counts 5 event(s), but the log has 1 event(s) up to that offset");
		this.store = new EventStore(this.dir.resolve("other.db"), "FULL", Duration.ofSeconds(5));
	}

	private long sqlLong(String query) throws Exception {
		return sqlLong(this.dir.resolve("events.db"), query);
	}

	private static long sqlLong(Path file, String query) throws Exception {
		try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
				Statement statement = connection.createStatement();
				ResultSet row = statement.executeQuery(query)) {
			row.next();
			return row.getLong(1);
		}
	}

	private static void sql(Path file, String... statements) throws Exception {
		try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
				Statement statement = connection.createStatement()) {
			for (String sql : statements) {
				statement.executeUpdate(sql);
			}
		}
	}

}
