package dev.lifecycle.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.lifecycle.core.component.EngineThreads;
import dev.lifecycle.core.sequence.Listeners;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of the engine's life, reached once: by the sequence's report (normal or cut by
 * the ceiling) or by a forced exit. The marker is released, the pre-stop watcher closed
 * and the listeners told before anyone waiting sees the report, so the report on disk is
 * final when a caller exits with its code.
 */
final class Termination {

	/**
	 * The longest a forced exit waits for the listeners to have heard the shutdown's
	 * start.
	 */
	private static final Duration START_HEARD_PATIENCE = Duration.ofSeconds(1);

	/** The manager's lines keep its logger name, which users filter and configure. */
	private static final Logger logger = LoggerFactory.getLogger(LifecycleManager.class);

	private final CompletableFuture<ShutdownReport> report = new CompletableFuture<>();

	private final RunRecords records;

	private final @Nullable PreStopWatcher preStopWatcher;

	private final Listeners listeners;

	private final EngineThreads threads;

	/**
	 * The report once the sequence ended, or a forced exit's mark: whichever came first
	 * wins.
	 */
	private @Nullable ShutdownReport ended;

	private boolean forced;

	Termination(RunRecords records, @Nullable PreStopWatcher preStopWatcher, Listeners listeners,
			EngineThreads threads) {
		this.records = records;
		this.preStopWatcher = preStopWatcher;
		this.listeners = listeners;
		this.threads = threads;
	}

	/**
	 * The end of the sequence, normal or cut by the ceiling; runs once. After a forced
	 * exit the records keep saying forced, since the process is halting with that code:
	 * the marker stays and the listeners are not told of a completion the process will
	 * not exit with.
	 */
	void finish(ShutdownReport finished) {
		boolean afterForcedExit;
		synchronized (this) {
			this.ended = finished;
			afterForcedExit = this.forced;
		}
		if (this.preStopWatcher != null) {
			this.preStopWatcher.close();
		}
		if (!afterForcedExit) {
			this.records.close(finished);
			this.listeners.shutdownCompleted(finished);
		}
		this.report.complete(finished);
		// Last: when the ceiling fired this runs on the scheduler's own thread, which
		// this ends.
		this.threads.shutdown();
	}

	/**
	 * A second signal: the listeners record the forced exit, then the line is logged, and
	 * the caller halts at once with the code returned. If the sequence already ended, its
	 * report's code is returned and nothing is recorded, so that the records and the exit
	 * code always agree.
	 */
	int forceExit() {
		synchronized (this) {
			if (this.ended != null) {
				return this.ended.exitCode();
			}
			this.forced = true;
		}
		// A second signal can follow the first before the sequence has told the listeners
		// that the shutdown began (during the start, at once): the record of its start
		// must exist for the forced end to be recorded on it.
		this.listeners.awaitShutdownHeard(START_HEARD_PATIENCE);
		this.listeners.forcedExit(ExitCodes.FORCED);
		// Last before the halt: nothing the process does after this line is acknowledged
		// for long.
		logger.error("Lifecycle: second shutdown signal; forcing exit with code {} before the sequence finished",
				ExitCodes.FORCED);
		return ExitCodes.FORCED;
	}

	/**
	 * The host halts a process the ceiling found still alive: the listeners record it,
	 * whatever the report said, unless a forced exit came first (the process is already
	 * halting with its code).
	 */
	void halted(String heldBy) {
		synchronized (this) {
			if (this.forced) {
				return;
			}
		}
		this.listeners.halted(ExitCodes.CEILING, heldBy);
	}

	Optional<ShutdownReport> report() {
		return Optional.ofNullable(this.report.getNow(null));
	}

	CompletionStage<ShutdownReport> stage() {
		return this.report.minimalCompletionStage();
	}

	ShutdownReport await() throws InterruptedException {
		try {
			return this.report.get();
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex.getCause());
		}
	}

	Optional<ShutdownReport> await(Duration timeout) throws InterruptedException {
		try {
			return Optional.of(this.report.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
		}
		catch (TimeoutException ex) {
			return Optional.empty();
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex.getCause());
		}
	}

}
