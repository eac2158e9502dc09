package dev.lifecycle.sample.store;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.LongConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's single writer: one thread owns the write connection and runs every write
 * (appends and checkpoints) as a task from its queue. Appends that queue up while a
 * transaction commits are committed together in the next one (group commit): each caller
 * still waits for <em>its</em> commit, but concurrent callers share the cost of the
 * fsync. Offsets are assigned inside these transactions only, so committed offsets only
 * ever grow.
 *
 * <p>
 * Every write runs in a {@code BEGIN IMMEDIATE} transaction; a write that fails rolls
 * back whole and fails its callers with a {@link StoreException} of the failure's kind,
 * and the writer goes on.
 */
final class StoreWriter {

	/**
	 * One logger for the whole store, so its lines read as the store's whatever part
	 * writes them.
	 */
	private static final Logger logger = LoggerFactory.getLogger(EventStore.class);

	/** The most appends committed in one transaction. */
	private static final int MAX_GROUP = 256;

	private final StoreConnections connections;

	private final Path file;

	private final BlockingQueue<Task> queue = new LinkedBlockingQueue<>();

	private final Object queueLock = new Object();

	private final Thread thread;

	private final List<LongConsumer> appendListeners = new CopyOnWriteArrayList<>();

	private volatile boolean closed;

	/** The failure of the last write, or null if it committed. */
	private volatile StoreException writeFailure;

	/**
	 * Starts the writer thread.
	 * @param connections the store's connections, whose write connection this thread then
	 * owns
	 * @param file the database file, for log lines
	 * @param initialFailure why writes fail from the start (the store opened read-only),
	 * or null
	 */
	StoreWriter(StoreConnections connections, Path file, StoreException initialFailure) {
		this.connections = connections;
		this.file = file;
		this.writeFailure = initialFailure;
		this.thread = new Thread(this::writeLoop, "event-store-writer");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	void onAppend(LongConsumer listener) {
		this.appendListeners.add(listener);
	}

	/** Queues an append and waits for its commit. */
	AppendResult append(String id, String key, long value) throws InterruptedException {
		Append task = new Append(id, key, value);
		submit(task);
		return await(task.result);
	}

	/** Queues a checkpoint and waits for its commit. */
	void writeCheckpoint(long offset, Map<String, Aggregate> changed) throws InterruptedException {
		WriteCheckpoint task = new WriteCheckpoint(offset, changed);
		submit(task);
		await(task.result);
	}

	/**
	 * Whether the last write committed (true until one fails, and again after one
	 * succeeds).
	 */
	boolean lastWriteCommitted() {
		return this.writeFailure == null;
	}

	boolean isClosed() {
		return this.closed;
	}

	/**
	 * Refuses new writes, commits what is queued and stops the thread (waiting up to 10
	 * seconds).
	 * @return false if it was stopped already
	 */
	boolean stop() {
		synchronized (this.queueLock) {
			if (this.closed) {
				return false;
			}
			this.closed = true;
			this.queue.add(Task.STOP);
		}
		try {
			this.thread.join(10_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return true;
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
			this.connections.ensureWritable();
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
		// Look the id up first: a conflicting INSERT would still consume an AUTOINCREMENT
		// value and leave a gap. Only this thread writes, so nothing can insert the id
		// between the lookup and the insert.
		PreparedStatement findById = this.connections.findById();
		findById.setString(1, append.id);
		try (ResultSet existing = findById.executeQuery()) {
			if (existing.next()) {
				long offset = existing.getLong(1);
				boolean same = existing.getString(2).equals(append.key) && existing.getLong(3) == append.value;
				return new AppendResult(offset, same ? AppendResult.Outcome.DUPLICATE : AppendResult.Outcome.CONFLICT);
			}
		}
		PreparedStatement insert = this.connections.insert();
		insert.setString(1, append.id);
		insert.setString(2, append.key);
		insert.setLong(3, append.value);
		try (ResultSet inserted = insert.executeQuery()) {
			if (!inserted.next()) {
				throw new SQLException("event id '" + append.id + "' was not inserted");
			}
			return new AppendResult(inserted.getLong(1), AppendResult.Outcome.APPENDED);
		}
	}

	private void commitCheckpoint(WriteCheckpoint task) {
		try {
			this.connections.ensureWritable();
		}
		catch (StoreException ex) {
			writeFailed(ex, "the checkpoint");
			task.result.completeExceptionally(ex);
			return;
		}
		try (PreparedStatement upsertAggregate = this.connections.write()
			.prepareStatement("INSERT INTO aggregates(key, sum, count) VALUES (?, ?, ?) "
					+ "ON CONFLICT(key) DO UPDATE SET sum = excluded.sum, count = excluded.count");
				PreparedStatement upsertCheckpoint = this.connections.write()
					.prepareStatement("INSERT INTO checkpoint(id, log_offset, updated_at) VALUES (1, ?, ?) "
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
			StoreException failure = new StoreException(
					"Could not write the checkpoint at offset " + task.offset + ": " + ex.getMessage(), ex);
			writeFailed(failure, "the checkpoint");
			task.result.completeExceptionally(failure);
		}
	}

	/**
	 * Records a failed write. A busy database or a full disk passes by itself: it is
	 * logged when it starts and when it ends, not for every request in between.
	 */
	private void writeFailed(StoreException failure, String what) {
		StoreException previous = this.writeFailure;
		this.writeFailure = failure;
		if (failure.kind() == StoreException.Cause.OTHER) {
			logger.error("Event store: could not commit {}; nothing of it was written", what, failure);
		}
		else if (previous == null || previous.kind() != failure.kind()) {
			logger.warn(
					"Event store: writes to {} fail ({}: {}); appends are refused with Retry-After and "
							+ "checkpoints retried until a write succeeds again; reads go on",
					this.file, failure.kind(), failure.getMessage());
		}
	}

	private void writeSucceeded() {
		StoreException previous = this.writeFailure;
		if (previous != null) {
			this.writeFailure = null;
			logger.info("Event store: writes to {} succeed again (after {})", this.file, previous.kind());
		}
	}

	/**
	 * Begins a write transaction with {@code BEGIN IMMEDIATE}: it takes the write lock at
	 * once, waiting up to the busy timeout while another process holds it. (A deferred
	 * transaction would take it at its first write after a read and then fail at once,
	 * without waiting, and the driver's own transactions would begin the next one,
	 * holding the lock, right after each commit.) The write connection stays in
	 * auto-commit mode outside these explicit transactions.
	 */
	private void begin() throws SQLException {
		try (Statement statement = this.connections.write().createStatement()) {
			statement.execute("BEGIN IMMEDIATE");
		}
	}

	private void commit() throws SQLException {
		try (Statement statement = this.connections.write().createStatement()) {
			statement.execute("COMMIT");
		}
	}

	private void rollback() {
		if (this.connections.write() == null) {
			return;
		}
		try (Statement statement = this.connections.write().createStatement()) {
			statement.execute("ROLLBACK");
		}
		catch (SQLException ex) {
			// No transaction was open (BEGIN itself failed), or SQLite already rolled it
			// back.
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
