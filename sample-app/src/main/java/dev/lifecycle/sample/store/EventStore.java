package dev.lifecycle.sample.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable event log and the pipeline's checkpoint, in one SQLite database in WAL
 * mode, with plain JDBC.
 *
 * <p>
 * <b>One writer.</b> SQLite allows one writer at a time, so a single thread owns the
 * write connection and every write (appends and checkpoints) is a task on its queue.
 * Appends that queue up while a transaction commits are committed together in the next
 * one (group commit): each caller still waits for <em>its</em> commit before it is
 * acknowledged, but concurrent callers share the cost of the fsync, which keeps a few
 * thousand acknowledged events per second cheap even with {@code synchronous=FULL}.
 * Readers (the pipeline, backups) use their own connections; WAL lets them read a
 * consistent snapshot while the writer commits.
 *
 * <p>
 * <b>What it refuses, how it degrades.</b> The file is stamped ({@code application_id},
 * {@code user_version}); at open a newer or unknown schema, a foreign database and a
 * checkpoint that does not match its log are refused with
 * {@link UnusableDatabaseException}, without a write. Writes run in
 * {@code BEGIN IMMEDIATE} transactions, so they wait up to the busy timeout for a lock
 * held by another process; a write that fails because the database is busy or the disk is
 * full fails with a {@link StoreException} of that {@link StoreException#kind() kind} and
 * the store goes on (reads are not affected). When the disk is too full at open even to
 * create the WAL index, the store opens read-only and becomes writable by itself once a
 * write finds space.
 *
 * <p>
 * <b>Offsets.</b> {@code event_log.offset} is an {@code AUTOINCREMENT} key assigned
 * inside the single writer's transactions, so committed offsets only ever grow: a reader
 * that has seen offset {@code n} never later finds a committed event below {@code n}. The
 * pipeline can therefore consume the log with {@code offset > last} and never miss an
 * entry.
 *
 * <p>
 * <b>Its parts.</b> This class is the store's API and its reads. The writer thread and
 * its transactions are {@code StoreWriter}'s; opening the connections, and the read-only
 * mode of a full disk, {@code StoreConnections}'; what counts as this sample's database,
 * {@code StoreSchema}'s; reading a checkpoint, {@code CheckpointReader}'s; the backup,
 * {@code StoreBackup}'s.
 */
public final class EventStore implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(EventStore.class);

	/** Marks the file as this sample's database ({@code PRAGMA application_id}). */
	static final int APPLICATION_ID = StoreSchema.APPLICATION_ID;

	/** The schema version this code reads and writes ({@code PRAGMA user_version}). */
	static final int SCHEMA_VERSION = StoreSchema.SCHEMA_VERSION;

	private final Path file;

	private final StoreConnections connections;

	private final StoreWriter writer;

	/**
	 * Opens (creating if needed) the database and starts the writer thread.
	 * @param file the database file; its directory is created
	 * @param synchronous {@code FULL} or {@code NORMAL}
	 * @param busyTimeout how long a connection waits for a lock
	 * @throws UnusableDatabaseException if the file is not this sample's database, has a
	 * newer or unknown schema, or its checkpoint does not match its log (the file is left
	 * unchanged)
	 */
	public EventStore(Path file, String synchronous, Duration busyTimeout) {
		this(file, synchronous, busyTimeout, false);
	}

	/**
	 * Opens (creating if needed) the database and starts the writer thread.
	 * @param file the database file; its directory is created
	 * @param synchronous {@code FULL} or {@code NORMAL}
	 * @param busyTimeout how long a connection waits for a lock
	 * @param rebuildCheckpoint discard the checkpoint and the stored aggregates first, so
	 * that the pipeline recounts every key from the log (the way out of a checkpoint that
	 * does not match its log)
	 * @throws UnusableDatabaseException if the file is not this sample's database, has a
	 * newer or unknown schema, or its checkpoint does not match its log (the file is left
	 * unchanged)
	 */
	public EventStore(Path file, String synchronous, Duration busyTimeout, boolean rebuildCheckpoint) {
		this.file = file.toAbsolutePath().normalize();
		this.connections = new StoreConnections(this.file, synchronous, busyTimeout, rebuildCheckpoint);
		this.writer = new StoreWriter(this.connections, this.file, this.connections.readOnlyCause());
		logger.info("Event store: opened {} (WAL, synchronous={}, schema version {}{})", this.file,
				this.connections.synchronous(), SCHEMA_VERSION,
				this.connections.isReadOnly() ? ", READ-ONLY until the disk has space" : "");
	}

	/** The database file. */
	public Path file() {
		return this.file;
	}

	/**
	 * Registers a callback run on the writer thread after each commit that appended
	 * events, with the highest offset committed. Keep it short (the pipeline uses it to
	 * wake up).
	 * @param listener the callback
	 */
	public void onAppend(LongConsumer listener) {
		this.writer.onAppend(listener);
	}

	// ---- writes
	// --------------------------------------------------------------------------------

	/**
	 * Appends an event and returns once it is committed (or known from before).
	 * Idempotent on the event id: a repeat with the same key and value returns the
	 * original offset; a repeat with a different key or value is a
	 * {@link AppendResult.Outcome#CONFLICT}.
	 * @param id the client's event id
	 * @param key the aggregation key
	 * @param value the value
	 * @return the committed offset and the outcome
	 * @throws StoreException if the store is closed or the write failed (nothing was
	 * committed)
	 * @throws InterruptedException if interrupted while waiting for the commit (it may
	 * still commit)
	 */
	public AppendResult append(String id, String key, long value) throws InterruptedException {
		requireWellFormed("id", id);
		requireWellFormed("key", key);
		return this.writer.append(id, key, value);
	}

	/**
	 * Writes a checkpoint in one transaction: the changed aggregates and the offset they
	 * are at.
	 * @param offset the last log offset included in the aggregates
	 * @param changed the aggregates of the keys that changed since the previous
	 * checkpoint
	 * @throws StoreException if the store is closed or the write failed (nothing was
	 * written)
	 * @throws InterruptedException if interrupted while waiting
	 */
	public void writeCheckpoint(long offset, Map<String, Aggregate> changed) throws InterruptedException {
		this.writer.writeCheckpoint(offset, changed);
	}

	/**
	 * Text with an unpaired surrogate has no UTF-8 form: the driver would store a
	 * replacement character, and a different id would then look like a repeat of this
	 * one.
	 */
	private static void requireWellFormed(String what, String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(c)) {
				throw new IllegalArgumentException(
						"The event's " + what + " is not valid Unicode (unpaired surrogate at " + i + ")");
			}
		}
	}

	/**
	 * Whether the last write committed (true until one fails, and again after one
	 * succeeds).
	 */
	public boolean isWritable() {
		return this.writer.lastWriteCommitted() && !this.connections.isReadOnly();
	}

	// ---- reads
	// ---------------------------------------------------------------------------------

	/**
	 * Reads log entries after an offset, in offset order.
	 * @param offset read entries strictly after this one
	 * @param limit at most this many
	 * @return the entries, possibly none
	 */
	public List<LoggedEvent> readAfter(long offset, int limit) {
		synchronized (this.connections.readLock()) {
			checkOpen();
			try {
				PreparedStatement readAfter = this.connections.readAfter();
				readAfter.setLong(1, offset);
				readAfter.setInt(2, limit);
				List<LoggedEvent> events = new ArrayList<>();
				try (ResultSet rows = readAfter.executeQuery()) {
					while (rows.next()) {
						events.add(new LoggedEvent(rows.getLong(1), rows.getString(2), rows.getString(3),
								rows.getLong(4)));
					}
				}
				return events;
			}
			catch (SQLException ex) {
				throw new StoreException("Cannot read the log after offset " + offset + ": " + ex.getMessage(), ex);
			}
		}
	}

	/**
	 * The last checkpoint, or {@link Checkpoint#empty()}; aggregates and offset from one
	 * snapshot.
	 */
	public Checkpoint loadCheckpoint() {
		Map<String, Aggregate> aggregates = new HashMap<>();
		Checkpoint checkpoint = loadCheckpoint(aggregates::put);
		return new Checkpoint(checkpoint.offset(), aggregates, checkpoint.updatedAt());
	}

	/**
	 * The last checkpoint, its aggregates handed over one row at a time as they are read
	 * rather than collected: recovery then holds each aggregate once, where it keeps it,
	 * and needs no more memory than the running pipeline. Aggregates and offset come from
	 * one snapshot.
	 * @param each receives every key's aggregate
	 * @return the checkpoint's offset and time; its aggregates are empty, they went to
	 * {@code each}
	 */
	public Checkpoint loadCheckpoint(BiConsumer<String, Aggregate> each) {
		synchronized (this.connections.readLock()) {
			checkOpen();
			try {
				return CheckpointReader.read(this.connections.read(), each);
			}
			catch (SQLException ex) {
				throw new StoreException("Cannot read the checkpoint: " + ex.getMessage(), ex);
			}
		}
	}

	/**
	 * Reads the checkpoint of any database with this schema (a backup, say) in one read
	 * transaction.
	 * @param connection an open connection
	 * @return the checkpoint
	 * @throws SQLException on a read failure
	 */
	public static Checkpoint readCheckpoint(Connection connection) throws SQLException {
		Map<String, Aggregate> aggregates = new HashMap<>();
		Checkpoint checkpoint = CheckpointReader.read(connection, aggregates::put);
		return new Checkpoint(checkpoint.offset(), aggregates, checkpoint.updatedAt());
	}

	/** The highest committed offset, 0 for an empty log. */
	public long lastOffset() {
		synchronized (this.connections.readLock()) {
			checkOpen();
			try (Statement statement = this.connections.read().createStatement();
					ResultSet row = statement.executeQuery("SELECT COALESCE(MAX(offset), 0) FROM event_log")) {
				row.next();
				return row.getLong(1);
			}
			catch (SQLException ex) {
				throw new StoreException("Cannot read the last offset: " + ex.getMessage(), ex);
			}
		}
	}

	private void checkOpen() {
		if (this.writer.isClosed()) {
			throw new StoreException("The event store is closed", StoreException.Cause.CLOSED);
		}
	}

	// ---- backup
	// --------------------------------------------------------------------------------

	/**
	 * Takes a consistent copy of the whole database with {@code VACUUM INTO} (a snapshot:
	 * commits that happen meanwhile are not in it), written to a temporary name in the
	 * directory, flushed to disk and renamed atomically, so a file with the final name is
	 * always a complete database.
	 * @param directory where to write; created if missing
	 * @param fileName the backup's file name
	 * @return the backup file
	 * @throws StoreException if the backup could not be written (no file with the final
	 * name exists)
	 */
	public Path backupTo(Path directory, String fileName) {
		checkOpen();
		return StoreBackup.vacuumInto(this.connections.url(), this.connections.baseConfig(), directory, fileName);
	}

	// ---- close
	// ---------------------------------------------------------------------------------

	/**
	 * Commits what is queued, stops the writer, checkpoints the WAL into the main file
	 * and closes the connections. Later appends fail with {@link StoreException}.
	 * Idempotent.
	 */
	@Override
	public void close() {
		if (!this.writer.stop()) {
			return;
		}
		this.connections.close();
		logger.info("Event store: closed {}", this.file);
	}

}
