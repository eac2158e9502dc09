package dev.lifecycle.autoconfigure.component;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import org.springframework.core.task.TaskDecorator;

/**
 * The task decorator Lifecycle puts in front of an adopted Spring executor's own. It
 * counts the tasks the executor accepted until they finish and knows the threads running
 * them; once closed, at the executor's turn in the shutdown, a task submitted is run for
 * the submitting thread before {@code execute} returns ({@link LateTask}) instead of
 * being rejected or started where nobody waits for it.
 *
 * <p>
 * A task is counted before the gate is checked, and the gate is closed before the count
 * is read, so every task is either counted (and waited for) or run by its caller: none
 * slips between.
 */
final class TaskGate implements TaskDecorator {

	private static final Runnable NOTHING = () -> {
	};

	private static final long RECHECK_MILLIS = 50;

	private final @Nullable TaskDecorator delegate;

	private final AtomicInteger accepted = new AtomicInteger();

	private final Set<Thread> running = ConcurrentHashMap.newKeySet();

	private final Object idle = new Object();

	private volatile boolean closed;

	/**
	 * @param delegate the executor's own decorator, applied first; {@code null} when it
	 * had none
	 */
	TaskGate(@Nullable TaskDecorator delegate) {
		this.delegate = delegate;
	}

	@Override
	public Runnable decorate(Runnable runnable) {
		Runnable task = (this.delegate != null) ? this.delegate.decorate(runnable) : runnable;
		this.accepted.incrementAndGet();
		if (this.closed) {
			finished();
			LateTask.run(task);
			return NOTHING;
		}
		return () -> {
			Thread current = Thread.currentThread();
			this.running.add(current);
			try {
				task.run();
			}
			finally {
				this.running.remove(current);
				finished();
			}
		};
	}

	private void finished() {
		if (this.accepted.decrementAndGet() == 0) {
			synchronized (this.idle) {
				this.idle.notifyAll();
			}
		}
	}

	/** From now on the caller runs what it submits. */
	void close() {
		this.closed = true;
	}

	/**
	 * Blocks until every accepted task has finished; the engine's budget bounds the wait.
	 */
	void awaitAccepted() throws InterruptedException {
		synchronized (this.idle) {
			while (this.accepted.get() > 0) {
				this.idle.wait(RECHECK_MILLIS);
			}
		}
	}

	/** Tasks accepted and not yet finished. */
	int accepted() {
		return this.accepted.get();
	}

	/** The threads running accepted tasks now. */
	Set<Thread> running() {
		return Set.copyOf(this.running);
	}

}
