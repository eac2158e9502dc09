package dev.lifecycle.sample.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
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
 * <p><b>What it refuses, how it degrades.</b> The file is stamped ({@code application_id},
 * {@code user_version}); at open a newer or unknown schema, a foreign database and a checkpoint that
 * does not match its log are refused with {@link UnusableDatabaseException}, without a write. Writes
 * run in {@code BEGIN IMMEDIATE} transactions, so they wait up to the busy timeout for a lock held by
 * another process; a write that fails because the database is busy or the disk is full fails with a
 * {@link StoreException} of that {@link StoreException#kind() kind} and the store goes on (reads are
 * not affected). When the disk is too full at open even to create the WAL index, the store opens
 * read-only and becomes writable by itself once a write finds space.
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

	/** Marks the file as this sample's database ({@code PRAGMA application_id}). */
	static final int APPLICATION_ID = StoreSchema.APPLICATION_ID;

	/** The schema version this code reads and writes ({@code PRAGMA user_version}). */
	static final int SCHEMA_VERSION = StoreSchema.SCHEMA_VERSION;

	private final Path file;

	private final StoreSchema schema;

	private final Duration busyTimeout;

	private final String synchronous;

	/** The write connection and its statements: null while the store is read-only; writer thread only. */
	private Connection writeConnection;

	private PreparedStatement insert;

	private PreparedStatement findById;

	/** Guards the read connection and its statement, which are replaced when the store becomes writable. */
	private final Object readLock = new Object();

	private Connection readConnection;

	private PreparedStatement readAfter;

	/** Opened without a write connection because the disk was full at start; see {@link #ensureWritable()}. */
	private volatile boolean readOnly;

	private long nextWritableAttemptNanos;

	private final BlockingQueue<Task> queue = new LinkedBlockingQueue<>();

	private final Object queueLock = new Object();

	private final Thread writer;

	private final List<LongConsumer> appendListeners = new CopyOnWriteArrayList<>();

	private volatile boolean closed;

	/** The failure of the last write, or null if it committed. */
	private volatile StoreException writeFailure;

	/**
	 * Opens (creating if needed) the database and starts the writer thread.
	 * @param file the database file; its directory is created
	 * @param synchronous {@code FULL} or {@code NORMAL}
	 * @param busyTimeout how long a connection waits for a lock
	 * @throws UnusableDatabaseException if the file is not this sample's database, has a newer or unknown
	 * schema, or its checkpoint does not match its log (the file is left unchanged)
	 */
	public EventStore(Path file, String synchronous, Duration busyTimeout) {
		this(file, synchronous, busyTimeout, false);
	}

	/**
	 * Opens (creating if needed) the database and starts the writer thread.
	 * @param file the database file; its directory is created
	 * @param synchronous {@code FULL} or {@code NORMAL}
	 * @param busyTimeout how long a connection waits for a lock
	 * @param rebuildCheckpoint discard the checkpoint and the stored aggregates first, so that the
	 * pipeline recounts every key from the log (the way out of a checkpoint that does not match its log)
	 * @throws UnusableDatabaseException if the file is not this sample's database, has a newer or unknown
	 * schema, or its checkpoint does not match its log (the file is left unchanged)
	 */
	public EventStore(Path file, String synchronous, Duration busyTimeout, boolean rebuildCheckpoint) {
		this.file = file.toAbsolutePath().normalize();
		this.schema = new StoreSchema(this.file);
		this.busyTimeout = busyTimeout;
		this.synchronous = synchronous.toUpperCase(Locale.ROOT);
		SQLiteConfig.SynchronousMode.valueOf(this.synchronous);
		try {
			Files.createDirectories(this.file.getParent());
			openWritable(rebuildCheckpoint);
		}
		catch (IOException ex) {
			throw new StoreException("Cannot open the event store at " + this.file + ": " + ex.getMessage(), ex);
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
		this.writer = new Thread(this::writeLoop, "event-store-writer");
		this.writer.setDaemon(true);
		this.writer.start();
		logger.info("Event store: opened {} (WAL, synchronous={}, schema version {}{})", this.file, this.synchronous,
				SCHEMA_VERSION, this.readOnly ? ", READ-ONLY until the disk has space" : "");
	}

	/**
	 * Opens the write connection (checking the schema and the checkpoint) and a read connection, and
	 * swaps them in. On failure nothing is left open and the store is as it was.
	 */
	private void openWritable(boolean rebuildCheckpoint) {
		Connection write = null;
		Connection read = null;
		try {
			SQLiteConfig writeConfig = baseConfig(this.busyTimeout);
			writeConfig.setJournalMode(SQLiteConfig.JournalMode.WAL);
			writeConfig.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(this.synchronous));
			write = DriverManager.getConnection(url(), writeConfig.toProperties());
			this.schema.prepare(write, rebuildCheckpoint, false);
			this.schema.checkCheckpointMatchesLog(write);
			PreparedStatement insert = write.prepareStatement(
					"INSERT INTO event_log(event_id, key, value) VALUES (?, ?, ?) RETURNING offset");
			PreparedStatement findById = write.prepareStatement("SELECT offset, key, value FROM event_log WHERE event_id = ?");
			SQLiteConfig readConfig = baseConfig(this.busyTimeout);
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
	 * The disk is full and SQLite cannot even create the shared-memory index a WAL database needs to
	 * be read: open the file immutable (read-only, no index) so that the service starts, recovers and
	 * serves reads; every write is refused as FULL until {@link #ensureWritable()} manages to open it
	 * normally. Only a database closed cleanly is in that state, so its main file holds everything.
	 */
	private void openReadOnly(StoreException cause) {
		Connection read = null;
		try {
			SQLiteConfig config = baseConfig(this.busyTimeout);
			config.setReadOnly(true);
			read = DriverManager.getConnection("jdbc:sqlite:file:" + this.file + "?immutable=1", config.toProperties());
			this.schema.prepare(read, false, true);
			this.schema.checkCheckpointMatchesLog(read);
			useForReads(read);
			this.readOnly = true;
			this.writeFailure = cause;
			logger.warn("Event store: the disk holding {} is full ({}); opened it READ-ONLY: reads and recovery work, "
					+ "writes are refused with 507 until there is space, then it becomes writable by itself", this.file,
					cause.getMessage());
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
	 * Before a write on the writer thread: a read-only store tries, at most once a second, to open
	 * the database for writing.
	 * @throws StoreException (FULL) while it cannot
	 */
	private void ensureWritable() {
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
		requireWellFormed("id", id);
		requireWellFormed("key", key);
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

	/**
	 * Text with an unpaired surrogate has no UTF-8 form: the driver would store a replacement
	 * character, and a different id would then look like a repeat of this one.
	 */
	private static void requireWellFormed(String what, String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(c)) {
				throw new IllegalArgumentException("The event's " + what + " is not valid Unicode (unpaired surrogate at "
						+ i + ")");
			}
		}
	}

	private void submit(Task task) {
		synchronized (this.queueLock) {
			if (this.closed) {
				throw new StoreException("The event store is closed", StoreException.Cause.CLOSED);
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
			ensureWritable();
			begin();
			for (Append append : appends) {
				AppendResult result = insertOrFind(append);
				results.add(result);
				if (result.outcome() == AppendResult.Outcome.APPENDED) {
					highest = Math.max(highest, result.offset());
				}
			}
			commit();
		}
		catch (SQLException | RuntimeException ex) {
			rollback();
			StoreException failure = new StoreException("Could not commit the event: " + ex.getMessage(), ex);
			writeFailed(failure, appends.size() + " append(s)");
			appends.forEach((append) -> append.result.completeExceptionally(failure));
			appends.clear();
			return;
		}
		writeSucceeded();
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
		try {
			ensureWritable();
		}
		catch (StoreException ex) {
			writeFailed(ex, "the checkpoint");
			task.result.completeExceptionally(ex);
			return;
		}
		try (PreparedStatement upsertAggregate = this.writeConnection.prepareStatement(
				"INSERT INTO aggregates(key, sum, count) VALUES (?, ?, ?) "
						+ "ON CONFLICT(key) DO UPDATE SET sum = excluded.sum, count = excluded.count");
				PreparedStatement upsertCheckpoint = this.writeConnection.prepareStatement(
						"INSERT INTO checkpoint(id, log_offset, updated_at) VALUES (1, ?, ?) "
								+ "ON CONFLICT(id) DO UPDATE SET log_offset = excluded.log_offset, "
								+ "updated_at = excluded.updated_at")) {
			begin();
			for (Map.Entry<String, Aggregate> entry : task.changed.entrySet()) {
				upsertAggregate.setString(1, entry.getKey());
				upsertAggregate.setString(2, entry.getValue().sum().toString());
				upsertAggregate.setLong(3, entry.getValue().count());
				upsertAggregate.addBatch();
			}
			upsertAggregate.executeBatch();
			upsertCheckpoint.setLong(1, task.offset);
			upsertCheckpoint.setString(2, Instant.now().toString());
			upsertCheckpoint.executeUpdate();
			commit();
			writeSucceeded();
			task.result.complete(null);
		}
		catch (SQLException | RuntimeException ex) {
			rollback();
			StoreException failure = new StoreException("Could not write the checkpoint at offset " + task.offset + ": "
					+ ex.getMessage(), ex);
			writeFailed(failure, "the checkpoint");
			task.result.completeExceptionally(failure);
		}
	}

	/**
	 * Records a failed write. A busy database or a full disk passes by itself: it is logged when it
	 * starts and when it ends, not for every request in between.
	 */
	private void writeFailed(StoreException failure, String what) {
		StoreException previous = this.writeFailure;
		this.writeFailure = failure;
		if (failure.kind() == StoreException.Cause.OTHER) {
			logger.error("Event store: could not commit {}; nothing of it was written", what, failure);
		}
		else if (previous == null || previous.kind() != failure.kind()) {
			logger.warn("Event store: writes to {} fail ({}: {}); appends are refused with Retry-After and "
					+ "checkpoints retried until a write succeeds again; reads go on", this.file, failure.kind(),
					failure.getMessage());
		}
	}

	private void writeSucceeded() {
		StoreException previous = this.writeFailure;
		if (previous != null) {
			this.writeFailure = null;
			logger.info("Event store: writes to {} succeed again (after {})", this.file, previous.kind());
		}
	}

	/** Whether the last write committed (true until one fails, and again after one succeeds). */
	public boolean isWritable() {
		return this.writeFailure == null && !this.readOnly;
	}

	/**
	 * Begins a write transaction with {@code BEGIN IMMEDIATE}: it takes the write lock at once, waiting
	 * up to the busy timeout while another process holds it. (A deferred transaction would take it at
	 * its first write after a read and then fail at once, without waiting, and the driver's own
	 * transactions would begin the next one, holding the lock, right after each commit.) The write
	 * connection stays in auto-commit mode outside these explicit transactions.
	 */
	private void begin() throws SQLException {
		try (Statement statement = this.writeConnection.createStatement()) {
			statement.execute("BEGIN IMMEDIATE");
		}
	}

	private void commit() throws SQLException {
		try (Statement statement = this.writeConnection.createStatement()) {
			statement.execute("COMMIT");
		}
	}

	private void rollback() {
		if (this.writeConnection == null) {
			return;
		}
		try (Statement statement = this.writeConnection.createStatement()) {
			statement.execute("ROLLBACK");
		}
		catch (SQLException ex) {
			// No transaction was open (BEGIN itself failed), or SQLite already rolled it back.
			logger.debug("Event store: rollback: {}", ex.getMessage());
		}
	}

	private void failRemaining() {
		List<Task> left = new ArrayList<>();
		this.queue.drainTo(left);
		StoreException closedException = new StoreException("The event store is closed", StoreException.Cause.CLOSED);
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
		synchronized (this.readLock) {
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
		Map<String, Aggregate> aggregates = new HashMap<>();
		Checkpoint checkpoint = loadCheckpoint(aggregates::put);
		return new Checkpoint(checkpoint.offset(), aggregates, checkpoint.updatedAt());
	}

	/**
	 * The last checkpoint, its aggregates handed over one row at a time as they are read rather than
	 * collected: recovery then holds each aggregate once, where it keeps it, and needs no more memory
	 * than the running pipeline. Aggregates and offset come from one snapshot.
	 * @param each receives every key's aggregate
	 * @return the checkpoint's offset and time; its aggregates are empty, they went to {@code each}
	 */
	public Checkpoint loadCheckpoint(BiConsumer<String, Aggregate> each) {
		synchronized (this.readLock) {
			checkOpen();
			try {
				return CheckpointReader.read(this.readConnection, each);
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
		Map<String, Aggregate> aggregates = new HashMap<>();
		Checkpoint checkpoint = CheckpointReader.read(connection, aggregates::put);
		return new Checkpoint(checkpoint.offset(), aggregates, checkpoint.updatedAt());
	}

	/** The highest committed offset, 0 for an empty log. */
	public long lastOffset() {
		synchronized (this.readLock) {
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
			throw new StoreException("The event store is closed", StoreException.Cause.CLOSED);
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
		return StoreBackup.vacuumInto(url(), baseConfig(this.busyTimeout), directory, fileName);
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
		logger.info("Event store: closed {}", this.file);
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
