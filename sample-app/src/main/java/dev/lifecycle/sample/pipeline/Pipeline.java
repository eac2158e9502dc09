package dev.lifecycle.sample.pipeline;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;

import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.sample.SampleProperties;
import dev.lifecycle.sample.store.Aggregate;
import dev.lifecycle.sample.store.Checkpoint;
import dev.lifecycle.sample.store.EventStore;
import dev.lifecycle.sample.store.LoggedEvent;
import dev.lifecycle.sample.store.StoreException;
import dev.lifecycle.spring.ManagedComponent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The aggregation pipeline: a standard-tier active component that consumes the event log
 * in offset order, keeps the sum and count of every key in memory, and checkpoints the
 * aggregates together with the offset they are at in one transaction every
 * {@code checkpoint-every} events or {@code checkpoint-interval}, whichever comes first.
 *
 * <p>
 * <b>Recovery before readiness.</b> {@link #afterPropertiesSet()} loads the last
 * checkpoint and replays the log after its offset while the application context is still
 * being built, so the service is not ready (and does not answer {@code /counts}) until
 * the aggregates are caught up.
 *
 * <p>
 * <b>Stopping.</b> {@link #requestStopWithCheckpoint()} (the shutdown handler) or the
 * engine telling the component to stop makes it consume every event committed up to that
 * moment, write a final checkpoint and move to {@link PipelineState#STOPPED}. Events
 * committed later (ingestion keeps accepting until its own phase stops) stay in the
 * durable log and are replayed at the next start: the checkpoint is an optimisation of
 * recovery, the log is the truth, so no acknowledged event is ever lost and none is
 * counted twice (the checkpoint's offset says exactly which events its aggregates
 * include).
 *
 * <p>
 * Health: it reports a heartbeat on every loop, busy or idle (an idle loop wakes at least
 * every {@code idle-poll}); a loop stuck for longer than the liveness deadline is a stall
 * and, this being a standard component, shuts the service down.
 */
@ManagedComponent(value = Pipeline.NAME, phase = Pipeline.PHASE, livenessDeadline = "10s", gracefulShutdown = "30s")
public class Pipeline implements ActiveComponent, InitializingBean {

	/** The component name. */
	public static final String NAME = "pipeline";

	/** Lower than ingestion's phase: the pipeline stops after ingestion. */
	public static final int PHASE = 10;

	private static final Logger logger = LoggerFactory.getLogger(Pipeline.class);

	private final EventStore store;

	private final SampleProperties.Pipeline settings;

	private final boolean hangOnStop;

	/**
	 * Guards {@link #aggregates} and {@link #offset} for readers of {@link #snapshot()}.
	 */
	private final ReadWriteLock stateLock = new ReentrantReadWriteLock();

	/** Sorted, so that {@code GET /counts} can be served a page at a time. */
	private final NavigableMap<String, Aggregate> aggregates = new TreeMap<>();

	/** Keys changed since the last checkpoint; touched by the consuming thread only. */
	private final Set<String> dirty = new HashSet<>();

	private final Semaphore wakeUp = new Semaphore(0);

	private final Object stateMonitor = new Object();

	private long offset;

	private volatile long publishedOffset;

	private volatile long checkpointOffset;

	private volatile long latestAppended;

	private volatile PipelineState state = PipelineState.STARTING;

	private volatile boolean stopRequested;

	private volatile boolean recovered;

	private long sinceCheckpoint;

	/** Consecutive failed checkpoints; touched by the consuming thread only. */
	private int failedCheckpoints;

	private long nextCheckpointAttemptNanos;

	private static final int MAX_RETRY_SECONDS = 30;

	private long lastCheckpointNanos;

	@Autowired
	public Pipeline(EventStore store, SampleProperties properties) {
		this(store, properties.pipeline(), properties.test().hangPipelineOnStop());
	}

	public Pipeline(EventStore store, SampleProperties.Pipeline settings, boolean hangOnStop) {
		this.store = store;
		this.settings = settings;
		this.hangOnStop = hangOnStop;
		store.onAppend((appended) -> {
			this.latestAppended = appended;
			this.wakeUp.release();
		});
	}

	@Override
	public void afterPropertiesSet() throws InterruptedException {
		recover();
	}

	/**
	 * Loads the last checkpoint and replays the log after it. Idempotent: runs once.
	 * @throws InterruptedException if interrupted while writing the post-recovery
	 * checkpoint
	 */
	public synchronized void recover() throws InterruptedException {
		if (this.recovered) {
			return;
		}
		long start = System.nanoTime();
		Checkpoint checkpoint;
		int keys;
		this.stateLock.writeLock().lock();
		try {
			// Straight into the map the pipeline keeps: no second copy of every key while
			// recovering.
			checkpoint = this.store.loadCheckpoint(this.aggregates::put);
			keys = this.aggregates.size();
			this.offset = checkpoint.offset();
			this.publishedOffset = this.offset;
		}
		finally {
			this.stateLock.writeLock().unlock();
		}
		this.checkpointOffset = checkpoint.offset();
		this.lastCheckpointNanos = System.nanoTime();
		long replayed = 0;
		List<LoggedEvent> batch;
		while (!(batch = this.store.readAfter(this.offset, this.settings.batchSize())).isEmpty()) {
			apply(batch);
			replayed += batch.size();
			// As often as the running pipeline does, so the keys a checkpoint writes stay
			// as few.
			if (this.sinceCheckpoint >= this.settings.checkpointEvery()) {
				tryCheckpoint();
			}
		}
		if (this.sinceCheckpoint > 0) {
			tryCheckpoint();
		}
		this.recovered = true;
		logger.info(
				"Pipeline: recovered from checkpoint at offset {} ({} key(s)), replayed {} event(s) from the log, "
						+ "now at offset {} ({} ms)",
				checkpoint.offset(), keys, replayed, this.offset,
				TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
	}

	// ---- the component
	// -------------------------------------------------------------------------

	@Override
	public void run(ComponentHandle handle) throws Exception {
		consume(handle::isShuttingDown, handle::reportHealthy);
		// STOPPED by the shutdown handler: the work is done, but the component ends when
		// the engine tells its phase to stop (after ingestion has drained), so it stays
		// alive and healthy until then.
		while (!handle.awaitShutdown(Duration.ofSeconds(1))) {
			handle.reportHealthy();
		}
	}

	/**
	 * Runs the pipeline on the calling thread without Lifecycle, as a plain Spring Boot
	 * application would: until {@link #requestStopWithCheckpoint()}, with no heartbeats
	 * and no stall detection. Only the plain-Spring mode the benchmarks compare against
	 * calls this.
	 * @throws Exception if consuming or checkpointing fails (the state is then FAILED)
	 */
	public void runUnmanaged() throws Exception {
		consume(() -> false, () -> {
		});
	}

	private void consume(BooleanSupplier toldToStop, Runnable heartbeat) throws Exception {
		recover();
		transition(PipelineState.RUNNING);
		logger.info("Pipeline: running from offset {}", this.offset);
		try {
			while (!this.stopRequested && !toldToStop.getAsBoolean()) {
				heartbeat.run();
				int read = consumeOnce();
				maybeCheckpoint();
				if (read < this.settings.batchSize() && !this.stopRequested) {
					// Idle or caught up: sleep until an append or a stop request wakes
					// us, at most idle-poll.
					this.wakeUp.tryAcquire(this.settings.idlePoll().toNanos(), TimeUnit.NANOSECONDS);
					this.wakeUp.drainPermits();
				}
			}
			stop(heartbeat);
		}
		catch (Exception | Error ex) {
			transition(PipelineState.FAILED);
			logger.error("Pipeline: failed at offset {} (last checkpoint at offset {})", this.offset,
					this.checkpointOffset, ex);
			throw ex;
		}
	}

	private void stop(Runnable heartbeat) throws InterruptedException {
		transition(PipelineState.STOPPING);
		long target = this.store.lastOffset();
		logger.info("Pipeline: stopping; consuming up to offset {} (the last committed event), then a final "
				+ "checkpoint", target);
		if (this.hangOnStop) {
			hang();
		}
		while (this.offset < target) {
			heartbeat.run();
			if (consumeOnce() == 0) {
				break;
			}
		}
		checkpoint();
		transition(PipelineState.STOPPED);
		logger.info("Pipeline: stopped with a final checkpoint at offset {}", this.checkpointOffset);
	}

	/**
	 * The test-only switch: never finish stopping, so the global ceiling has to fire
	 * (exit 129).
	 */
	private void hang() {
		logger.warn("Pipeline: sample.test.hang-pipeline-on-stop=true, so the pipeline now hangs instead of "
				+ "stopping (test switch)");
		while (true) {
			try {
				Thread.sleep(60_000);
			}
			catch (InterruptedException ex) {
				// Keep hanging: this simulates a stuck consumer.
			}
		}
	}

	private int consumeOnce() {
		List<LoggedEvent> batch = this.store.readAfter(this.offset, this.settings.batchSize());
		if (!batch.isEmpty()) {
			apply(batch);
		}
		return batch.size();
	}

	private void apply(List<LoggedEvent> batch) {
		this.stateLock.writeLock().lock();
		try {
			for (LoggedEvent event : batch) {
				if (event.offset() <= this.offset) {
					throw new IllegalStateException(
							"Log offset " + event.offset() + " is not after processed offset " + this.offset);
				}
				// Exact sums: no accepted value can make the live path or a replay fail.
				this.aggregates.merge(event.key(), new Aggregate(event.value(), 1), Aggregate::plus);
				this.dirty.add(event.key());
				this.offset = event.offset();
			}
			this.publishedOffset = this.offset;
		}
		finally {
			this.stateLock.writeLock().unlock();
		}
		this.sinceCheckpoint += batch.size();
	}

	private void maybeCheckpoint() throws InterruptedException {
		if (this.sinceCheckpoint == 0) {
			return;
		}
		long now = System.nanoTime();
		// After a failure, wait for the retry pause, unless a write (an append) has
		// committed since: then the cause is gone and the checkpoint catches up at once.
		if (this.failedCheckpoints > 0 && now - this.nextCheckpointAttemptNanos < 0 && !this.store.isWritable()) {
			return;
		}
		boolean enoughEvents = this.sinceCheckpoint >= this.settings.checkpointEvery();
		boolean longEnough = now - this.lastCheckpointNanos >= this.settings.checkpointInterval().toNanos();
		if (enoughEvents || longEnough || this.failedCheckpoints > 0) {
			tryCheckpoint();
		}
	}

	/**
	 * A checkpoint that may fail without harm: the log is the truth and the aggregates
	 * stay in memory, so a full disk or a locked database only delays it. It is retried
	 * with a growing pause (up to {@value #MAX_RETRY_SECONDS} s) until it succeeds; the
	 * keys changed meanwhile stay marked.
	 */
	private void tryCheckpoint() throws InterruptedException {
		try {
			checkpoint();
			if (this.failedCheckpoints > 0) {
				logger.info("Pipeline: checkpoint at offset {} written after {} failed attempt(s)", this.offset,
						this.failedCheckpoints);
				this.failedCheckpoints = 0;
			}
		}
		catch (StoreException ex) {
			this.failedCheckpoints++;
			long pauseMillis = Math.min(TimeUnit.SECONDS.toMillis(MAX_RETRY_SECONDS),
					this.settings.checkpointInterval().toMillis() << Math.min(this.failedCheckpoints - 1, 10));
			this.nextCheckpointAttemptNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMillis);
			if (this.failedCheckpoints == 1 || this.failedCheckpoints % 20 == 0) {
				logger.warn(
						"Pipeline: checkpoint at offset {} failed ({} attempt(s) so far, next in {} ms); the "
								+ "pipeline goes on from memory and the log keeps every event: {}",
						this.offset, this.failedCheckpoints, pauseMillis, ex.getMessage());
			}
		}
	}

	/** Writes the changed aggregates and the current offset in one transaction. */
	private void checkpoint() throws InterruptedException {
		Map<String, Aggregate> changed = new HashMap<>(this.dirty.size() * 2);
		for (String key : this.dirty) {
			changed.put(key, this.aggregates.get(key));
		}
		this.store.writeCheckpoint(this.offset, changed);
		this.dirty.clear();
		this.sinceCheckpoint = 0;
		this.lastCheckpointNanos = System.nanoTime();
		this.checkpointOffset = this.offset;
		logger.debug("Pipeline: checkpoint at offset {} ({} key(s) changed)", this.offset, changed.size());
	}

	// ---- control and queries
	// -------------------------------------------------------------------

	/**
	 * Asks the pipeline to stop with a final checkpoint (Arroyo's
	 * {@code StopType::Checkpoint}): it consumes every event committed up to now,
	 * checkpoints, and moves to STOPPED. Returns at once.
	 */
	public void requestStopWithCheckpoint() {
		this.stopRequested = true;
		this.wakeUp.release();
	}

	/**
	 * Waits until the state is one of the given ones.
	 * @param timeout the longest wait
	 * @param states the states to wait for
	 * @return the state reached, or empty if the wait expired
	 * @throws InterruptedException if interrupted
	 */
	public Optional<PipelineState> awaitState(Duration timeout, PipelineState... states) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		synchronized (this.stateMonitor) {
			while (true) {
				PipelineState current = this.state;
				for (PipelineState wanted : states) {
					if (current == wanted) {
						return Optional.of(current);
					}
				}
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0) {
					return Optional.empty();
				}
				TimeUnit.NANOSECONDS.timedWait(this.stateMonitor, remaining);
			}
		}
	}

	private void transition(PipelineState next) {
		synchronized (this.stateMonitor) {
			this.state = next;
			this.stateMonitor.notifyAll();
		}
	}

	public PipelineState state() {
		return this.state;
	}

	/** The last log offset included in the in-memory aggregates. */
	public long offset() {
		return this.publishedOffset;
	}

	/** The offset of the last checkpoint written. */
	public long checkpointOffset() {
		return this.checkpointOffset;
	}

	/** The highest offset the store reported as appended since start (0 if none yet). */
	public long latestAppended() {
		return Math.max(this.latestAppended, this.publishedOffset);
	}

	/**
	 * One page of keys in key order, consistently with the offset it is at: the keys
	 * starting with {@code prefix} (all when empty) and after {@code after} (from the
	 * first when null), at most {@code limit} of them. Costs O(log n + limit), whatever
	 * the number of keys.
	 * @param prefix keep keys with this prefix ("" for all)
	 * @param after start after this key, or null
	 * @param limit the most keys returned (at least 1)
	 * @return the page, with the key to continue after when there are more
	 */
	public CountsPage page(String prefix, String after, int limit) {
		this.stateLock.readLock().lock();
		try {
			NavigableMap<String, Aggregate> from = (after != null && after.compareTo(prefix) >= 0)
					? this.aggregates.tailMap(after, false) : this.aggregates.tailMap(prefix, true);
			return CountsPage.of(from, prefix, limit, this.offset, this.checkpointOffset, this.state);
		}
		finally {
			this.stateLock.readLock().unlock();
		}
	}

	/**
	 * Every key's aggregate and the offset they are at, consistently (a copy of
	 * everything: tests only).
	 */
	public CountsSnapshot snapshot() {
		this.stateLock.readLock().lock();
		try {
			return new CountsSnapshot(this.offset, this.checkpointOffset, this.state, Map.copyOf(this.aggregates));
		}
		finally {
			this.stateLock.readLock().unlock();
		}
	}

	/**
	 * One key's aggregate and the offset it is at; empty aggregate if the key is unknown.
	 */
	public KeyCount count(String key) {
		this.stateLock.readLock().lock();
		try {
			return new KeyCount(key, Optional.ofNullable(this.aggregates.get(key)), this.offset);
		}
		finally {
			this.stateLock.readLock().unlock();
		}
	}

}
