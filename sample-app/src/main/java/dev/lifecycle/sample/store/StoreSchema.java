package dev.lifecycle.sample.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event database's schema and what is accepted as one: it creates the schema in an
 * empty file, migrates the unstamped layout of earlier releases, accepts the current
 * version, and refuses a newer or unknown schema, a foreign database, and a checkpoint
 * that does not describe a prefix of its log, with {@link UnusableDatabaseException} and
 * without writing a byte.
 */
final class StoreSchema {

	private static final Logger logger = LoggerFactory.getLogger(EventStore.class);

	/**
	 * Marks the file as this sample's database ({@code PRAGMA application_id}, "LCev").
	 */
	static final int APPLICATION_ID = 0x4c436576;

	/**
	 * The schema version this code reads and writes ({@code PRAGMA user_version}).
	 * Version 1 was the unstamped layout of earlier releases (sums as 64-bit integers);
	 * version 2 stores exact sums as text.
	 */
	static final int SCHEMA_VERSION = 2;

	private static final String SCHEMA = """
			CREATE TABLE event_log (
			    offset   INTEGER PRIMARY KEY AUTOINCREMENT,
			    event_id TEXT UNIQUE NOT NULL,
			    key      TEXT NOT NULL,
			    value    INTEGER NOT NULL);
			CREATE TABLE aggregates (
			    key   TEXT PRIMARY KEY,
			    sum   TEXT NOT NULL,
			    count INTEGER NOT NULL);
			CREATE TABLE checkpoint (
			    id         INTEGER PRIMARY KEY CHECK (id = 1),
			    log_offset INTEGER NOT NULL,
			    updated_at TEXT);
			""";

	/**
	 * The tables of the current schema and their columns, as {@code PRAGMA table_info}
	 * lists them.
	 */
	private static final Map<String, String> LAYOUT = Map.of("event_log",
			"offset INTEGER, event_id TEXT, key TEXT, value INTEGER", "aggregates", "key TEXT, sum TEXT, count INTEGER",
			"checkpoint", "id INTEGER, log_offset INTEGER, updated_at TEXT");

	/** The unstamped layout of earlier releases (schema version 1), migrated in place. */
	private static final Map<String, String> LEGACY_LAYOUT = Map.of("event_log",
			"offset INTEGER, event_id TEXT, key TEXT, value INTEGER", "aggregates",
			"key TEXT, sum INTEGER, count INTEGER", "checkpoint", "id INTEGER, log_offset INTEGER, updated_at TEXT");

	private static final String MIGRATE_LEGACY = """
			CREATE TABLE aggregates_v2 (
			    key   TEXT PRIMARY KEY,
			    sum   TEXT NOT NULL,
			    count INTEGER NOT NULL);
			INSERT INTO aggregates_v2(key, sum, count)
			    SELECT key, CAST(COALESCE(sum, 0) AS TEXT), COALESCE(count, 0) FROM aggregates;
			DROP TABLE aggregates;
			ALTER TABLE aggregates_v2 RENAME TO aggregates;
			""";

	private final Path file;

	StoreSchema(Path file) {
		this.file = file;
	}

	/**
	 * Creates the schema in an empty file, migrates the unstamped layout of earlier
	 * releases, accepts the current version, and refuses everything else without writing
	 * a byte.
	 */
	void prepare(Connection c, boolean rebuildCheckpoint, boolean readOnly) throws SQLException {
		int applicationId = (int) queryLong(c, "PRAGMA application_id");
		int version = (int) queryLong(c, "PRAGMA user_version");
		Map<String, String> layout = layout(c);
		boolean create = layout.isEmpty() && applicationId == 0 && version == 0;
		boolean migrate = applicationId == 0 && version == 0 && layout.equals(LEGACY_LAYOUT);
		if (readOnly && (create || migrate)) {
			throw new StoreException(
					"Cannot " + (create ? "create" : "migrate") + " the database " + this.file + " on a full disk",
					StoreException.Cause.FULL);
		}
		if (create) {
			inTransaction(c, SCHEMA + stamp());
			logger.info("Event store: created the schema (version {}) in {}", SCHEMA_VERSION, this.file);
			return;
		}
		if (applicationId == APPLICATION_ID) {
			if (version > SCHEMA_VERSION) {
				throw unusable(
						"it has schema version " + version + ", written by a newer release of the sample; this "
								+ "release knows versions up to " + SCHEMA_VERSION + ".",
						"Run the release that wrote it, or restore a backup taken by this release (events-*.db in the "
								+ "backup directory), or point sample.data-dir at an empty directory to start afresh. "
								+ "The file was not changed.");
			}
			if (version != SCHEMA_VERSION) {
				throw unusable(
						"it has schema version " + version + ", which this release does not know (it reads "
								+ "version " + SCHEMA_VERSION + ").",
						"Restore a backup taken by this release, or point sample.data-dir at an empty directory. "
								+ "The file was not changed.");
			}
			if (!layout.equals(LAYOUT)) {
				throw unusable(
						"it says schema version " + SCHEMA_VERSION + " but its tables do not match that version: "
								+ describe(layout) + "; expected " + describe(LAYOUT) + ".",
						"The file was altered by something else. Restore a backup (events-*.db in the backup "
								+ "directory) or point sample.data-dir at an empty directory. The file was not changed.");
			}
		}
		else if (migrate) {
			inTransaction(c, MIGRATE_LEGACY + stamp());
			logger.warn(
					"Event store: migrated {} from the unstamped schema of earlier releases (version 1: 64-bit "
							+ "sums) to version {} (exact sums); earlier releases cannot open it any more",
					this.file, SCHEMA_VERSION);
		}
		else {
			throw unusable(
					"it is not this sample's event database (application_id " + applicationId + ", user_version "
							+ version + ", tables: " + (layout.isEmpty() ? "none" : describe(layout)) + ").",
					"Point sample.data-dir at the sample's own data directory or at an empty one. The file was not "
							+ "changed: the sample never adds its tables to a database it did not create.");
		}
		if (rebuildCheckpoint) {
			inTransaction(c, "DELETE FROM aggregates; DELETE FROM checkpoint;");
			logger.warn("Event store: sample.db.rebuild-checkpoint=true: discarded the checkpoint and the stored "
					+ "aggregates of {}; every key is recounted from the log now. Remove the setting for later starts.",
					this.file);
		}
	}

	private String stamp() {
		return "PRAGMA application_id = " + APPLICATION_ID + "; PRAGMA user_version = " + SCHEMA_VERSION + ";";
	}

	/**
	 * Refuses a checkpoint that does not describe a prefix of this log: one ahead of the
	 * log's last offset (its aggregates count events the log does not have, and the
	 * pipeline would skip new events up to its offset), or aggregates whose counts do not
	 * add up to the events at or below its offset (a checkpoint of another log).
	 */
	void checkCheckpointMatchesLog(Connection c) throws SQLException {
		long checkpointOffset = queryLong(c, "SELECT COALESCE((SELECT log_offset FROM checkpoint WHERE id = 1), 0)");
		long lastOffset = queryLong(c, "SELECT COALESCE(MAX(offset), 0) FROM event_log");
		String rebuild = "If the log is the truth (a restored or copied file), start once with "
				+ "--sample.db.rebuild-checkpoint=true: the checkpoint is discarded and every key recounted from the "
				+ "log. Otherwise restore a backup (events-*.db in the backup directory). The file was not changed.";
		if (checkpointOffset > lastOffset) {
			throw unusable("its checkpoint is at log offset " + checkpointOffset + " but its log ends at offset "
					+ lastOffset + ": the checkpoint counts events this log does not have, and new events would be "
					+ "skipped.", rebuild);
		}
		long counted = queryLong(c, "SELECT COALESCE(SUM(count), 0) FROM aggregates");
		long logged = queryLong(c, "SELECT COUNT(*) FROM event_log WHERE offset <= " + checkpointOffset);
		if (counted != logged) {
			throw unusable("its checkpoint at log offset " + checkpointOffset + " counts " + counted + " event(s), but "
					+ "the log has " + logged + " event(s) up to that offset: the checkpoint belongs to another log.",
					rebuild);
		}
	}

	private UnusableDatabaseException unusable(String description, String action) {
		return new UnusableDatabaseException(this.file, description, action);
	}

	private static long queryLong(Connection c, String sql) throws SQLException {
		try (Statement statement = c.createStatement(); ResultSet row = statement.executeQuery(sql)) {
			return row.next() ? row.getLong(1) : 0;
		}
	}

	/**
	 * Table name to its columns ({@code "name TYPE, ..."}), SQLite's own tables left out.
	 */
	private static Map<String, String> layout(Connection c) throws SQLException {
		Map<String, String> tables = new TreeMap<>();
		try (Statement statement = c.createStatement();
				ResultSet rows = statement.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' "
						+ "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")) {
			while (rows.next()) {
				tables.put(rows.getString(1), null);
			}
		}
		for (String table : List.copyOf(tables.keySet())) {
			List<String> columns = new ArrayList<>();
			try (Statement statement = c.createStatement();
					ResultSet rows = statement
						.executeQuery("PRAGMA table_info(\"" + table.replace("\"", "\"\"") + "\")")) {
				while (rows.next()) {
					columns.add(rows.getString("name") + " " + rows.getString("type").toUpperCase(Locale.ROOT));
				}
			}
			tables.put(table, String.join(", ", columns));
		}
		return tables;
	}

	private static String describe(Map<String, String> layout) {
		StringBuilder text = new StringBuilder();
		new TreeMap<>(layout).forEach((table, columns) -> {
			if (text.length() > 0) {
				text.append("; ");
			}
			text.append(table).append('(').append(columns).append(')');
		});
		return text.toString();
	}

	/**
	 * Runs statements separated by {@code ;} in one transaction (the write connection is
	 * in auto-commit).
	 */
	private static void inTransaction(Connection c, String statements) throws SQLException {
		try (Statement statement = c.createStatement()) {
			statement.execute("BEGIN IMMEDIATE");
			try {
				for (String sql : statements.split(";")) {
					if (!sql.isBlank()) {
						statement.executeUpdate(sql);
					}
				}
				statement.execute("COMMIT");
			}
			catch (SQLException | RuntimeException ex) {
				try {
					statement.execute("ROLLBACK");
				}
				catch (SQLException rollback) {
					ex.addSuppressed(rollback);
				}
				throw ex;
			}
		}
	}

}
