package dev.lifecycle.sample.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

/**
 * The event database's connections: one write connection with its statements, owned by
 * the writer thread, and one read connection shared by the readers under
 * {@link #readLock()}. Opening checks the schema and the checkpoint, so a file that is
 * refused is left unchanged.
 *
 * <p>
 * <b>Read-only when the disk is full.</b> When the disk is too full at open even to
 * create the WAL index, the file is opened immutable (read-only, no index): the service
 * starts, recovers and serves reads, and every write is refused as
 * {@link StoreException.Cause#FULL} until {@link #ensureWritable()} manages to open it
 * normally, at most once a second.
 */
final class StoreConnections {

	/**
	 * One logger for the whole store, so its lines read as the store's whatever part
	 * writes them.
	 */
	private static final Logger logger = LoggerFactory.getLogger(EventStore.class);

	private final Path file;

	private final StoreSchema schema;

	private final Duration busyTimeout;

	private final String synchronous;

	/**
	 * The write connection and its statements: null while the store is read-only; writer
	 * thread only.
	 */
	private Connection writeConnection;

	private PreparedStatement insert;

	private PreparedStatement findById;

	/**
	 * Guards the read connection and its statement, which are replaced when the store
	 * becomes writable.
	 */
	private final Object readLock = new Object();

	private Connection readConnection;

	private PreparedStatement readAfter;

	/**
	 * Opened without a write connection because the disk was full at start; see
	 * {@link #ensureWritable()}.
	 */
	private volatile boolean readOnly;

	/** Why the store opened read-only, or null. */
	private StoreException readOnlyCause;

	private long nextWritableAttemptNanos;

	/**
	 * Opens the database, creating the file and its directory if needed, read-only if the
	 * disk is too full to open it otherwise.
	 * @throws UnusableDatabaseException if the file is not this sample's database, has a
	 * newer or unknown schema, or its checkpoint does not match its log (the file is left
	 * unchanged)
	 * @throws StoreException if it cannot be opened at all
	 */
	StoreConnections(Path file, String synchronous, Duration busyTimeout, boolean rebuildCheckpoint) {
		this.file = file;
		this.schema = new StoreSchema(file);
		this.busyTimeout = busyTimeout;
		this.synchronous = synchronous.toUpperCase(Locale.ROOT);
		SQLiteConfig.SynchronousMode.valueOf(this.synchronous);
		try {
			Files.createDirectories(file.getParent());
			openWritable(rebuildCheckpoint);
		}
		catch (IOException ex) {
			throw new StoreException("Cannot open the event store at " + file + ": " + ex.getMessage(), ex);
		}
		catch (StoreException ex) {
			if (!(ex instanceof UnusableDatabaseException) && ex.kind() == StoreException.Cause.FULL
					&& !rebuildCheckpoint) {
				openReadOnly(ex);
			}
			else {
				throw ex;
			}
		}
	}

	/**
	 * Opens the write connection (checking the schema and the checkpoint) and a read
	 * connection, and swaps them in. On failure nothing is left open and the store is as
	 * it was.
	 */
	private void openWritable(boolean rebuildCheckpoint) {
		Connection write = null;
		Connection read = null;
		try {
			SQLiteConfig writeConfig = baseConfig();
			writeConfig.setJournalMode(SQLiteConfig.JournalMode.WAL);
			writeConfig.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(this.synchronous));
			write = DriverManager.getConnection(url(), writeConfig.toProperties());
			this.schema.prepare(write, rebuildCheckpoint, false);
			this.schema.checkCheckpointMatchesLog(write);
			PreparedStatement insert = write
				.prepareStatement("INSERT INTO event_log(event_id, key, value) VALUES (?, ?, ?) RETURNING offset");
			PreparedStatement findById = write
				.prepareStatement("SELECT offset, key, value FROM event_log WHERE event_id = ?");
			SQLiteConfig readConfig = baseConfig();
			readConfig.setReadOnly(true);
			read = DriverManager.getConnection(url(), readConfig.toProperties());
			useForReads(read);
			this.writeConnection = write;
			this.insert = insert;
			this.findById = findById;
			this.readOnly = false;
		}
		catch (UnusableDatabaseException ex) {
			closeQuietly(read);
			closeQuietly(write);
			throw ex;
		}
		catch (SQLException | RuntimeException ex) {
			closeQuietly(read);
			closeQuietly(write);
			if (ex instanceof StoreException store) {
				throw store;
			}
			throw new StoreException("Cannot open the event store at " + this.file + ": " + ex.getMessage(), ex,
					diskFull() ? StoreException.Cause.FULL : null);
		}
	}

	/**
	 * The disk is full and SQLite cannot even create the shared-memory index a WAL
	 * database needs to be read: open the file immutable. Only a database closed cleanly
	 * is in that state, so its main file holds everything.
	 */
	private void openReadOnly(StoreException cause) {
		Connection read = null;
		try {
			SQLiteConfig config = baseConfig();
			config.setReadOnly(true);
			read = DriverManager.getConnection("jdbc:sqlite:file:" + this.file + "?immutable=1", config.toProperties());
			this.schema.prepare(read, false, true);
			this.schema.checkCheckpointMatchesLog(read);
			useForReads(read);
			this.readOnly = true;
			this.readOnlyCause = cause;
			logger.warn(
					"Event store: the disk holding {} is full ({}); opened it READ-ONLY: reads and recovery work, "
							+ "writes are refused with 507 until there is space, then it becomes writable by itself",
					this.file, cause.getMessage());
		}
		catch (SQLException | RuntimeException ex) {
			closeQuietly(read);
			if (ex instanceof UnusableDatabaseException unusable) {
				throw unusable;
			}
			cause.addSuppressed(ex);
			throw cause;
		}
	}

	/** Swaps in a new read connection (closing the previous one). */
	private void useForReads(Connection read) throws SQLException {
		PreparedStatement statement = read.prepareStatement(
				"SELECT offset, event_id, key, value FROM event_log WHERE offset > ? ORDER BY offset LIMIT ?");
		synchronized (this.readLock) {
			Connection previous = this.readConnection;
			this.readConnection = read;
			this.readAfter = statement;
			closeQuietly(previous);
		}
	}

	/**
	 * Before a write on the writer thread: a read-only store tries, at most once a
	 * second, to open the database for writing.
	 * @throws StoreException (FULL) while it cannot
	 */
	void ensureWritable() {
		if (!this.readOnly) {
			return;
		}
		long now = System.nanoTime();
		if (now - this.nextWritableAttemptNanos < 0) {
			throw new StoreException("The event store is read-only: the disk holding " + this.file + " is full",
					StoreException.Cause.FULL);
		}
		this.nextWritableAttemptNanos = now + TimeUnit.SECONDS.toNanos(1);
		openWritable(false);
		logger.info("Event store: {} is writable again (the disk has space)", this.file);
	}

	private boolean diskFull() {
		try {
			return Files.getFileStore(this.file.getParent()).getUsableSpace() < 1024 * 1024;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Whether it has no write connection yet because the disk was full (see
	 * {@link #ensureWritable()}).
	 */
	boolean isReadOnly() {
		return this.readOnly;
	}

	/** Why the store opened read-only, or null when it opened writable. */
	StoreException readOnlyCause() {
		return this.readOnlyCause;
	}

	/** The write connection; null while read-only. Writer thread only. */
	Connection write() {
		return this.writeConnection;
	}

	/**
	 * {@code INSERT … RETURNING offset} of one event on the write connection. Writer
	 * thread only.
	 */
	PreparedStatement insert() {
		return this.insert;
	}

	/**
	 * The offset, key and value of an event id on the write connection. Writer thread
	 * only.
	 */
	PreparedStatement findById() {
		return this.findById;
	}

	/** Held while the read connection or its statement is in use. */
	Object readLock() {
		return this.readLock;
	}

	/** The read connection; only under {@link #readLock()}. */
	Connection read() {
		return this.readConnection;
	}

	/**
	 * The entries after an offset, in offset order, at most a limit; only under
	 * {@link #readLock()}.
	 */
	PreparedStatement readAfter() {
		return this.readAfter;
	}

	/**
	 * The settings of a new connection (its busy timeout), for a backup's own connection.
	 */
	SQLiteConfig baseConfig() {
		SQLiteConfig config = new SQLiteConfig();
		config.setBusyTimeout((int) Math.min(Integer.MAX_VALUE, this.busyTimeout.toMillis()));
		return config;
	}

	String url() {
		return "jdbc:sqlite:" + this.file;
	}

	String synchronous() {
		return this.synchronous;
	}

	/**
	 * Checkpoints the WAL into the main file and closes both connections; once the writer
	 * has stopped.
	 */
	void close() {
		synchronized (this.readLock) {
			if (this.writeConnection != null) {
				try (Statement statement = this.writeConnection.createStatement()) {
					statement.execute("PRAGMA wal_checkpoint(TRUNCATE)");
				}
				catch (SQLException ex) {
					logger.warn("Event store: WAL checkpoint at close failed (the WAL is replayed at next open)", ex);
				}
			}
			closeQuietly(this.readConnection);
			closeQuietly(this.writeConnection);
		}
	}

	private static void closeQuietly(Connection connection) {
		if (connection == null) {
			return;
		}
		try {
			connection.close();
		}
		catch (SQLException ex) {
			logger.warn("Event store: closing a connection failed", ex);
		}
	}

}
