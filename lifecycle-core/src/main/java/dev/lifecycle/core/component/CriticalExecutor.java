package dev.lifecycle.core.component;

import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.core.Internal;

/**
 * An executor registered as a component. Until its phase is told to stop it hands tasks
 * to the delegate; at stop it stops the delegate taking new tasks and waits for every
 * accepted one. A task submitted after that runs on the submitting thread, so no work is
 * silently dropped (caller-runs).
 */
@Internal
public final class CriticalExecutor extends AbstractExecutorService {

	private final ExecutorService delegate;

	private final AtomicInteger queued = new AtomicInteger();

	private final AtomicInteger active = new AtomicInteger();

	private final Set<Thread> workers = ConcurrentHashMap.newKeySet();

	private volatile boolean stopped;

	public CriticalExecutor(ExecutorService delegate) {
		this.delegate = delegate;
	}

	@Override
	public void execute(Runnable task) {
		if (this.stopped) {
			task.run();
			return;
		}
		this.queued.incrementAndGet();
		try {
			this.delegate.execute(() -> runTracked(task));
		}
		catch (RejectedExecutionException ex) {
			// Lost the race with stop: the delegate no longer accepts, so the caller runs
			// it.
			this.queued.decrementAndGet();
			task.run();
		}
	}

	private void runTracked(Runnable task) {
		this.queued.decrementAndGet();
		this.active.incrementAndGet();
		Thread current = Thread.currentThread();
		this.workers.add(current);
		try {
			task.run();
		}
		finally {
			this.workers.remove(current);
			this.active.decrementAndGet();
		}
	}

	/** Stops accepting and blocks until every accepted task has finished. */
	void drain() throws InterruptedException {
		this.stopped = true;
		this.delegate.shutdown();
		while (!this.delegate.awaitTermination(1, TimeUnit.SECONDS)) {
			// Keep waiting: the component's budget, enforced by the sequence, bounds
			// this.
		}
	}

	int queueDepth() {
		return this.queued.get();
	}

	int activeCount() {
		return this.active.get();
	}

	Set<Thread> workers() {
		return Set.copyOf(this.workers);
	}

	@Override
	public void shutdown() {
		this.stopped = true;
		this.delegate.shutdown();
	}

	@Override
	public List<Runnable> shutdownNow() {
		this.stopped = true;
		return this.delegate.shutdownNow();
	}

	@Override
	public boolean isShutdown() {
		return this.stopped;
	}

	@Override
	public boolean isTerminated() {
		return this.delegate.isTerminated();
	}

	@Override
	public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
		return this.delegate.awaitTermination(timeout, unit);
	}

}
