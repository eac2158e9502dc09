package dev.lifecycle.sample.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import dev.lifecycle.sample.store.Checkpoint;
import dev.lifecycle.sample.store.EventStore;
import dev.lifecycle.testfixtures.ChildJvm;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** Checks shared by the process-level tests. */
final class Verify {

	static final JsonMapper JSON = JsonMapper.builder().build();

	private Verify() {
	}

	/**
	 * Every acknowledged event is counted exactly once: its key (the event id) has count
	 * 1 and the sum is the value sent; no key anywhere has a count other than 1 (events
	 * not acknowledged because the process died between commit and response may be there,
	 * but once).
	 */
	static void everyAcknowledgedEventCountedExactlyOnce(ChildJvm sample, Map<String, LoadGenerator.Ack> acked,
			String prefix) throws IOException {
		Map<String, JsonNode> keys = new java.util.LinkedHashMap<>();
		JsonNode counts = allCounts(sample, prefix, keys);
		List<String> problems = new ArrayList<>();
		acked.forEach((id, ack) -> {
			JsonNode key = keys.get(id);
			if (key == null) {
				problems.add(id + " (offset " + ack.offset() + ") is missing");
			}
			else if (key.get("count").longValue() != 1 || key.get("sum").longValue() != ack.value()) {
				problems.add(id + " has " + key + " but was sent once with value " + ack.value());
			}
		});
		for (Map.Entry<String, JsonNode> entry : keys.entrySet()) {
			if (entry.getValue().get("count").longValue() != 1) {
				problems.add(entry.getKey() + " counted " + entry.getValue().get("count") + " times");
			}
		}
		assertThat(problems).as("lost or double-counted events (%d acknowledged)", acked.size()).isEmpty();
		long maxAcked = acked.values().stream().mapToLong(LoadGenerator.Ack::offset).max().orElse(0);
		assertThat(counts.get("offset").longValue()).as("processed offset").isGreaterThanOrEqualTo(maxAcked);
	}

	/**
	 * Reads every page of {@code GET /counts?prefix=} into {@code keys}; returns the
	 * first page (its offset is a lower bound for all pages: the pipeline only moves
	 * forward).
	 */
	static JsonNode allCounts(ChildJvm sample, String prefix, Map<String, JsonNode> keys) throws IOException {
		JsonNode first = null;
		String after = null;
		do {
			String query = "/counts?limit=10000&prefix=" + prefix + ((after != null)
					? "&after=" + java.net.URLEncoder.encode(after, java.nio.charset.StandardCharsets.UTF_8) : "");
			JsonNode page = JSON.readTree(sample.get(query).body());
			if (first == null) {
				first = page;
			}
			for (Map.Entry<String, JsonNode> entry : page.get("keys").properties()) {
				keys.put(entry.getKey(), entry.getValue());
			}
			after = page.get("next").isNull() ? null : page.get("next").stringValue();
		}
		while (after != null);
		return first;
	}

	static Checkpoint checkpointOf(Path database) throws SQLException {
		try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database)) {
			return EventStore.readCheckpoint(connection);
		}
	}

	static long rowsIn(Path database) throws SQLException {
		try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
				Statement statement = connection.createStatement();
				ResultSet row = statement.executeQuery("SELECT count(*) FROM event_log")) {
			row.next();
			return row.getLong(1);
		}
	}

	static Optional<Path> latestBackup(Path directory) throws IOException {
		if (!Files.isDirectory(directory)) {
			return Optional.empty();
		}
		try (Stream<Path> files = Files.list(directory)) {
			return files.filter((p) -> p.getFileName().toString().matches("events-.*\\.db"))
				.max(Comparator.comparing((Path p) -> p.getFileName().toString()));
		}
	}

	/**
	 * Runs SQL statements on a database file with a plain connection (to build or tamper
	 * with a file).
	 */
	static void sql(Path database, String... statements) throws SQLException {
		try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
				Statement statement = connection.createStatement()) {
			for (String sql : statements) {
				statement.executeUpdate(sql);
			}
		}
	}

	/** One number from a query. */
	static long sqlLong(Path database, String query) throws SQLException {
		try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
				Statement statement = connection.createStatement();
				ResultSet row = statement.executeQuery(query)) {
			row.next();
			return row.getLong(1);
		}
	}

	/**
	 * The layout of the sample's releases before schema versioning (unstamped, 64-bit
	 * sums).
	 */
	static void createLegacyDatabase(Path database, String... inserts) throws Exception {
		Files.createDirectories(database.getParent());
		List<String> statements = new ArrayList<>(List.of(
				"CREATE TABLE event_log (offset INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT UNIQUE NOT NULL, "
						+ "key TEXT NOT NULL, value INTEGER NOT NULL)",
				"CREATE TABLE aggregates (key TEXT PRIMARY KEY, sum INTEGER, count INTEGER)",
				"CREATE TABLE checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), log_offset INTEGER NOT NULL, "
						+ "updated_at TEXT)",
				"PRAGMA journal_mode = WAL"));
		statements.addAll(List.of(inserts));
		try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
				Statement statement = connection.createStatement()) {
			for (String sql : statements) {
				statement.execute(sql);
			}
		}
	}

}
