package dev.lifecycle.core.component;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.Internal;

/**
 * Every thread the engine uses, all made by the one {@link ThreadFactory} the manager was
 * built with (platform daemon threads by default; virtual threads when an integration
 * passes them). Each thread is named after the work it does, so thread dumps and the
 * ceiling's diagnostics say whose work it is.
 */
@Internal
public final class EngineThreads {

	private static final String IDLE_STOP_WORKER = "lifecycle-stop-idle";

	private final ThreadFactory factory;

	private final ScheduledThreadPoolExecutor scheduler;

	/**
	 * Runs passive stops and executor drains. Pooled because a phase of many components
	 * would otherwise start as many threads at once; later phases reuse the threads of
	 * earlier ones.
	 */
	private final ThreadPoolExecutor stopWorkers;

	public EngineThreads(ThreadFactory factory) {
		this.factory = factory;
		this.scheduler = new ScheduledThreadPoolExecutor(1, (task) -> newThread("lifecycle-monitor", task));
		this.scheduler.setRemoveOnCancelPolicy(true);
		this.stopWorkers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 5, TimeUnit.SECONDS, new SynchronousQueue<>(),
				(task) -> newThread(IDLE_STOP_WORKER, task));
	}

	/**
	 * The default: platform threads, daemon so that a stuck component never keeps the JVM
	 * alive.
	 */
	public static ThreadFactory defaultFactory() {
		return (task) -> {
			Thread thread = new Thread(task);
			thread.setDaemon(true);
			return thread;
		};
	}

	/** A new, unstarted thread with the given name. */
	public Thread newThread(String name, Runnable task) {
		Thread thread = this.factory.newThread(task);
		thread.setName(name);
		if (!thread.isDaemon()) {
			thread.setDaemon(true);
		}
		return thread;
	}

	/** Runs stop work on a pooled thread that carries the given name while it works. */
	void runStopWork(String threadName, Runnable work) {
		this.stopWorkers.execute(() -> {
			Thread current = Thread.currentThread();
			current.setName(threadName);
			try {
				work.run();
			}
			finally {
				current.setName(IDLE_STOP_WORKER);
			}
		});
	}

	public ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
		return this.scheduler.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
	}

	ScheduledFuture<?> scheduleAtFixedRate(Runnable task, long periodNanos) {
		return this.scheduler.scheduleAtFixedRate(task, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
	}

	/**
	 * Ends the pools. Stop workers are not interrupted: a stop that overran its budget
	 * keeps its thread until it returns. Called last, possibly on the scheduler's own
	 * thread.
	 */
	public void shutdown() {
		this.stopWorkers.shutdown();
		this.scheduler.shutdownNow();
	}

}
