package dev.lifecycle.sample.store;

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
					// every tenth event is retried, as a client would after a lost response
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

}
