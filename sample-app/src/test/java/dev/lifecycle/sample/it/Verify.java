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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** Checks shared by the process-level tests. */
final class Verify {

	static final JsonMapper JSON = JsonMapper.builder().build();

	private Verify() {
	}

	/**
	 * Every acknowledged event is counted exactly once: its key (the event id) has count 1 and the sum
	 * is the value sent; no key anywhere has a count other than 1 (events not acknowledged because the
	 * process died between commit and response may be there, but once).
	 */
	static void everyAcknowledgedEventCountedExactlyOnce(SampleProcess sample, Map<String, LoadGenerator.Ack> acked,
			String prefix) throws IOException {
		JsonNode counts = JSON.readTree(sample.get("/counts?prefix=" + prefix).body());
		JsonNode keys = counts.get("keys");
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
		for (Map.Entry<String, JsonNode> entry : keys.properties()) {
			if (entry.getValue().get("count").longValue() != 1) {
				problems.add(entry.getKey() + " counted " + entry.getValue().get("count") + " times");
			}
		}
		assertThat(problems).as("lost or double-counted events (%d acknowledged)", acked.size()).isEmpty();
		long maxAcked = acked.values().stream().mapToLong(LoadGenerator.Ack::offset).max().orElse(0);
		assertThat(counts.get("offset").longValue()).as("processed offset").isGreaterThanOrEqualTo(maxAcked);
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

}
