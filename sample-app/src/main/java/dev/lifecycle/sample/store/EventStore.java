package dev.lifecycle.sample.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.LongConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

/**
 * The durable event log and the pipeline's checkpoint, in one SQLite database in WAL mode, with
 * plain JDBC.
 *
 * <p><b>One writer.</b> SQLite allows one writer at a time, so a single thread owns the write
 * connection and every write (appends and checkpoints) is a task on its queue. Appends that queue up
 * while a transaction commits are committed together in the next one (group commit): each caller
 * still waits for <em>its</em> commit before it is acknowledged, but concurrent callers share the
 * cost of the fsync, which keeps a few thousand acknowledged events per second cheap even with
 * {@code synchronous=FULL}. Readers (the pipeline, backups) use their own connections; WAL lets them
 * read a consistent snapshot while the writer commits.
 *
 * <p><b>Offsets.</b> {@code event_log.offset} is an {@code AUTOINCREMENT} key assigned inside the
 * single writer's transactions, so committed offsets only ever grow: a reader that has seen offset
 * {@code n} never later finds a committed event below {@code n}. The pipeline can therefore consume
 * the log with {@code offset > last} and never miss an entry.
 */
public final class EventStore implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(EventStore.class);

	/** The most appends committed in one transaction. */
	private static final int MAX_GROUP = 256;

	private static final String SCHEMA = """
			CREATE TABLE IF NOT EXISTS event_log (
			    offset   INTEGER PRIMARY KEY AUTOINCREMENT,
			    event_id TEXT UNIQUE NOT NULL,
			    key      TEXT NOT NULL,
			    value    INTEGER NOT NULL);
			CREATE TABLE IF NOT EXISTS aggregates (
			    key   TEXT PRIMARY KEY,
			    sum   INTEGER,
			    count INTEGER);
			CREATE TABLE IF NOT EXISTS checkpoint (
			    id         INTEGER PRIMARY KEY CHECK (id = 1),
			    log_offset INTEGER NOT NULL,
			    updated_at TEXT);
			""";

	private final Path file;

	private final Duration busyTimeout;

	private final Connection writeConnection;

	private final Connection readConnection;

	private final PreparedStatement insert;

	private final PreparedStatement findById;

	private final PreparedStatement readAfter;

	private final BlockingQueue<Task> queue = new LinkedBlockingQueue<>();

	private final Object queueLock = new Object();

	private final Thread writer;

	private final List<LongConsumer> appendListeners = new CopyOnWriteArrayList<>();

	private volatile boolean closed;

	/**
	 * Opens (creating if needed) the database and starts the writer thread.
	 * @param file the database file; its directory is created
	 * @param synchronous {@code FULL} or {@code NORMAL}
	 * @param busyTimeout how long a connection waits for a lock
	 */
	public EventStore(Path file, String synchronous, Duration busyTimeout) {
		this.file = file.toAbsolutePath().normalize();
		this.busyTimeout = busyTimeout;
		try {
			Files.createDirectories(this.file.getParent());
			SQLiteConfig writeConfig = baseConfig(busyTimeout);
			writeConfig.setJournalMode(SQLiteConfig.JournalMode.WAL);
			writeConfig.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(synchronous.toUpperCase(Locale.ROOT)));
			this.writeConnection = DriverManager.getConnection(url(), writeConfig.toProperties());
			try (Statement statement = this.writeConnection.createStatement()) {
				for (String ddl : SCHEMA.split(";")) {
					if (!ddl.isBlank()) {
						statement.executeUpdate(ddl);
					}
				}
			}
			this.writeConnection.setAutoCommit(false);
			this.insert = this.writeConnection.prepareStatement(
					"INSERT INTO event_log(event_id, key, value) VALUES (?, ?, ?) RETURNING offset");
			this.findById = this.writeConnection
				.prepareStatement("SELECT offset, key, value FROM event_log WHERE event_id = ?");
			SQLiteConfig readConfig = baseConfig(busyTimeout);
			readConfig.setReadOnly(true);
			this.readConnection = DriverManager.getConnection(url(), readConfig.toProperties());
			this.readAfter = this.readConnection.prepareStatement(
					"SELECT offset, event_id, key, value FROM event_log WHERE offset > ? ORDER BY offset LIMIT ?");
		}
		catch (SQLException | IOException ex) {
			throw new StoreException("Cannot open the event store at " + this.file + ": " + ex.getMessage(), ex);
		}
		this.writer = new Thread(this::writeLoop, "event-store-writer");
		this.writer.setDaemon(true);
		this.writer.start();
		logger.info("Event store: opened {} (WAL, synchronous={})", this.file, synchronous);
	}

	private static SQLiteConfig baseConfig(Duration busyTimeout) {
		SQLiteConfig config = new SQLiteConfig();
		config.setBusyTimeout((int) Math.min(Integer.MAX_VALUE, busyTimeout.toMillis()));
		return config;
	}

	private String url() {
		return "jdbc:sqlite:" + this.file;
	}

	/** The database file. */
	public Path file() {
		return this.file;
	}

	/**
	 * Registers a callback run on the writer thread after each commit that appended events, with the
	 * highest offset committed. Keep it short (the pipeline uses it to wake up).
	 * @param listener the callback
	 */
	public void onAppend(LongConsumer listener) {
		this.appendListeners.add(listener);
	}

	// ---- appends -------------------------------------------------------------------------------

	/**
	 * Appends an event and returns once it is committed (or known from before). Idempotent on the
	 * event id: a repeat with the same key and value returns the original offset; a repeat with a
	 * different key or value is a {@link AppendResult.Outcome#CONFLICT}.
	 * @param id the client's event id
	 * @param key the aggregation key
	 * @param value the value
	 * @return the committed offset and the outcome
	 * @throws StoreException if the store is closed or the write failed (nothing was committed)
	 * @throws InterruptedException if interrupted while waiting for the commit (it may still commit)
	 */
	public AppendResult append(String id, String key, long value) throws InterruptedException {
		Append task = new Append(id, key, value);
		submit(task);
		return await(task.result);
	}

	/**
	 * Writes a checkpoint in one transaction: the changed aggregates and the offset they are at.
	 * @param offset the last log offset included in the aggregates
	 * @param changed the aggregates of the keys that changed since the previous checkpoint
	 * @throws StoreException if the store is closed or the write failed (nothing was written)
	 * @throws InterruptedException if interrupted while waiting
	 */
	public void writeCheckpoint(long offset, Map<String, Aggregate> changed) throws InterruptedException {
		WriteCheckpoint task = new WriteCheckpoint(offset, changed);
		submit(task);
		await(task.result);
	}

	private void submit(Task task) {
		synchronized (this.queueLock) {
			if (this.closed) {
				throw new StoreException("The event store is closed");
			}
			this.queue.add(task);
		}
	}

	private static <T> T await(CompletableFuture<T> future) throws InterruptedException {
		try {
			return future.get();
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof StoreException store) {
				throw store;
			}
			throw new StoreException("Write failed: " + cause, cause);
		}
	}

	private void writeLoop() {
		List<Task> batch = new ArrayList<>();
		List<Append> appends = new ArrayList<>();
		while (true) {
			Task first;
			try {
				first = this.queue.take();
			}
			catch (InterruptedException ex) {
				continue;
			}
			batch.clear();
			batch.add(first);
			this.queue.drainTo(batch, MAX_GROUP - 1);
			for (Task task : batch) {
				if (task instanceof Append append) {
					appends.add(append);
					continue;
				}
				commitAppends(appends);
				if (task instanceof WriteCheckpoint checkpoint) {
					commitCheckpoint(checkpoint);
				}
				else if (task == Task.STOP) {
					failRemaining();
					return;
				}
			}
			commitAppends(appends);
		}
	}

	private void commitAppends(List<Append> appends) {
		if (appends.isEmpty()) {
			return;
		}
		List<AppendResult> results = new ArrayList<>(appends.size());
		long highest = 0;
		try {
			for (Append append : appends) {
				AppendResult result = insertOrFind(append);
				results.add(result);
				if (result.outcome() == AppendResult.Outcome.APPENDED) {
					highest = Math.max(highest, result.offset());
				}
			}
			this.writeConnection.commit();
		}
		catch (SQLException | RuntimeException ex) {
			rollback();
			logger.error("Event store: could not commit {} append(s); none is acknowledged", appends.size(), ex);
			StoreException failure = new StoreException("Could not commit the event: " + ex.getMessage(), ex);
			appends.forEach((append) -> append.result.completeExceptionally(failure));
			appends.clear();
			return;
		}
		for (int i = 0; i < appends.size(); i++) {
			appends.get(i).result.complete(results.get(i));
		}
		appends.clear();
		if (highest > 0) {
			for (LongConsumer listener : this.appendListeners) {
				try {
					listener.accept(highest);
				}
				catch (RuntimeException ex) {
					logger.warn("Event store: append listener failed", ex);
				}
			}
		}
	}

	private AppendResult insertOrFind(Append append) throws SQLException {
		// Look the id up first: a conflicting INSERT would still consume an AUTOINCREMENT value and leave
		// a gap. Only this thread writes, so nothing can insert the id between the lookup and the insert.
		this.findById.setString(1, append.id);
		try (ResultSet existing = this.findById.executeQuery()) {
			if (existing.next()) {
				long offset = existing.getLong(1);
				boolean same = existing.getString(2).equals(append.key) && existing.getLong(3) == append.value;
				return new AppendResult(offset,
						same ? AppendResult.Outcome.DUPLICATE : AppendResult.Outcome.CONFLICT);
			}
		}
		this.insert.setString(1, append.id);
		this.insert.setString(2, append.key);
		this.insert.setLong(3, append.value);
		try (ResultSet inserted = this.insert.executeQuery()) {
			if (!inserted.next()) {
				throw new SQLException("event id '" + append.id + "' was not inserted");
			}
			return new AppendResult(inserted.getLong(1), AppendResult.Outcome.APPENDED);
		}
	}

	private void commitCheckpoint(WriteCheckpoint task) {
		try (PreparedStatement upsertAggregate = this.writeConnection.prepareStatement(
				"INSERT INTO aggregates(key, sum, count) VALUES (?, ?, ?) "
						+ "ON CONFLICT(key) DO UPDATE SET sum = excluded.sum, count = excluded.count");
				PreparedStatement upsertCheckpoint = this.writeConnection.prepareStatement(
						"INSERT INTO checkpoint(id, log_offset, updated_at) VALUES (1, ?, ?) "
								+ "ON CONFLICT(id) DO UPDATE SET log_offset = excluded.log_offset, "
								+ "updated_at = excluded.updated_at")) {
			for (Map.Entry<String, Aggregate> entry : task.changed.entrySet()) {
				upsertAggregate.setString(1, entry.getKey());
				upsertAggregate.setLong(2, entry.getValue().sum());
				upsertAggregate.setLong(3, entry.getValue().count());
				upsertAggregate.addBatch();
			}
			upsertAggregate.executeBatch();
			upsertCheckpoint.setLong(1, task.offset);
			upsertCheckpoint.setString(2, Instant.now().toString());
			upsertCheckpoint.executeUpdate();
			this.writeConnection.commit();
			task.result.complete(null);
		}
		catch (SQLException | RuntimeException ex) {
			rollback();
			task.result.completeExceptionally(
					new StoreException("Could not write the checkpoint at offset " + task.offset + ": " + ex, ex));
		}
	}

	private void rollback() {
		try {
			this.writeConnection.rollback();
		}
		catch (SQLException ex) {
			logger.warn("Event store: rollback failed", ex);
		}
	}

	private void failRemaining() {
		List<Task> left = new ArrayList<>();
		this.queue.drainTo(left);
		StoreException closedException = new StoreException("The event store is closed");
		for (Task task : left) {
			if (task instanceof Append append) {
				append.result.completeExceptionally(closedException);
			}
			else if (task instanceof WriteCheckpoint checkpoint) {
				checkpoint.result.completeExceptionally(closedException);
			}
		}
	}

	// ---- reads ---------------------------------------------------------------------------------

	/**
	 * Reads log entries after an offset, in offset order.
	 * @param offset read entries strictly after this one
	 * @param limit at most this many
	 * @return the entries, possibly none
	 */
	public List<LoggedEvent> readAfter(long offset, int limit) {
		synchronized (this.readConnection) {
			checkOpen();
			try {
				this.readAfter.setLong(1, offset);
				this.readAfter.setInt(2, limit);
				List<LoggedEvent> events = new ArrayList<>();
				try (ResultSet rows = this.readAfter.executeQuery()) {
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

	/** The last checkpoint, or {@link Checkpoint#empty()}; aggregates and offset from one snapshot. */
	public Checkpoint loadCheckpoint() {
		synchronized (this.readConnection) {
			checkOpen();
			try {
				return readCheckpoint(this.readConnection);
			}
			catch (SQLException ex) {
				throw new StoreException("Cannot read the checkpoint: " + ex.getMessage(), ex);
			}
		}
	}

	/**
	 * Reads the checkpoint of any database with this schema (a backup, say) in one read transaction.
	 * @param connection an open connection
	 * @return the checkpoint
	 * @throws SQLException on a read failure
	 */
	public static Checkpoint readCheckpoint(Connection connection) throws SQLException {
		boolean autoCommit = connection.getAutoCommit();
		connection.setAutoCommit(false);
		try (Statement statement = connection.createStatement()) {
			long offset = 0;
			String updatedAt = null;
			try (ResultSet row = statement.executeQuery("SELECT log_offset, updated_at FROM checkpoint WHERE id = 1")) {
				if (row.next()) {
					offset = row.getLong(1);
					updatedAt = row.getString(2);
				}
			}
			Map<String, Aggregate> aggregates = new HashMap<>();
			try (ResultSet rows = statement.executeQuery("SELECT key, sum, count FROM aggregates")) {
				while (rows.next()) {
					aggregates.put(rows.getString(1), new Aggregate(rows.getLong(2), rows.getLong(3)));
				}
			}
			return new Checkpoint(offset, aggregates, updatedAt);
		}
		finally {
			connection.rollback();
			connection.setAutoCommit(autoCommit);
		}
	}

	/** The highest committed offset, 0 for an empty log. */
	public long lastOffset() {
		synchronized (this.readConnection) {
			checkOpen();
			try (Statement statement = this.readConnection.createStatement();
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
		if (this.closed) {
			throw new StoreException("The event store is closed");
		}
	}

	// ---- backup --------------------------------------------------------------------------------

	/**
	 * Takes a consistent copy of the whole database with {@code VACUUM INTO} (a snapshot: commits
	 * that happen meanwhile are not in it), written to a temporary name in the directory, flushed to
	 * disk and renamed atomically, so a file with the final name is always a complete database.
	 * @param directory where to write; created if missing
	 * @param fileName the backup's file name
	 * @return the backup file
	 * @throws StoreException if the backup could not be written (no file with the final name exists)
	 */
	public Path backupTo(Path directory, String fileName) {
		checkOpen();
		Path target = directory.resolve(fileName);
		Path temp = directory.resolve(fileName + ".tmp");
		try {
			Files.createDirectories(directory);
			Files.deleteIfExists(temp);
			// A fresh connection and a fresh Statement: VACUUM INTO refuses to run next to an open statement.
			try (Connection connection = DriverManager.getConnection(url(), baseConfig(this.busyTimeout).toProperties());
					PreparedStatement vacuum = connection.prepareStatement("VACUUM INTO ?")) {
				vacuum.setString(1, temp.toString());
				vacuum.execute();
			}
			try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
				channel.force(true);
			}
			Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
			forceDirectory(directory);
			return target;
		}
		catch (SQLException | IOException ex) {
			try {
				Files.deleteIfExists(temp);
			}
			catch (IOException ignored) {
				// best effort
			}
			throw new StoreException("Backup to " + target + " failed: " + ex, ex);
		}
	}

	private static void forceDirectory(Path directory) {
		try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
			channel.force(true);
		}
		catch (IOException ex) {
			// Not every platform can fsync a directory; the rename itself is still atomic.
		}
	}

	// ---- close ---------------------------------------------------------------------------------

	/**
	 * Commits what is queued, stops the writer, checkpoints the WAL into the main file and closes the
	 * connections. Later appends fail with {@link StoreException}. Idempotent.
	 */
	@Override
	public void close() {
		synchronized (this.queueLock) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			this.queue.add(Task.STOP);
		}
		try {
			this.writer.join(10_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		synchronized (this.readConnection) {
			try (Statement statement = this.writeConnection.createStatement()) {
				this.writeConnection.setAutoCommit(true);
				statement.execute("PRAGMA wal_checkpoint(TRUNCATE)");
			}
			catch (SQLException ex) {
				logger.warn("Event store: WAL checkpoint at close failed (the WAL is replayed at next open)", ex);
			}
			closeQuietly(this.readConnection);
			closeQuietly(this.writeConnection);
		}
		logger.info("Event store: closed {}", this.file);
	}

	private static void closeQuietly(Connection connection) {
		try {
			connection.close();
		}
		catch (SQLException ex) {
			logger.warn("Event store: closing a connection failed", ex);
		}
	}

	// ---- tasks ---------------------------------------------------------------------------------

	private interface Task {

		Task STOP = new Task() {
		};

	}

	private static final class Append implements Task {

		final String id;

		final String key;

		final long value;

		final CompletableFuture<AppendResult> result = new CompletableFuture<>();

		Append(String id, String key, long value) {
			this.id = id;
			this.key = key;
			this.value = value;
		}

	}

	private static final class WriteCheckpoint implements Task {

		final long offset;

		final Map<String, Aggregate> changed;

		final CompletableFuture<Void> result = new CompletableFuture<>();

		WriteCheckpoint(long offset, Map<String, Aggregate> changed) {
			this.offset = offset;
			this.changed = changed;
		}

	}

}
