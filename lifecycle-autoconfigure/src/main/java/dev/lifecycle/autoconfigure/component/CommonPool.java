package dev.lifecycle.autoconfigure.component;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * The JDK's common {@link ForkJoinPool} and the asynchronous work of
 * {@link CompletableFuture}. The pool never terminates, so an executor bean that exposes
 * it is never shut down or awaited as an executor. Work handed to it during a shutdown (a
 * {@code CompletableFuture.supplyAsync} in a component's stop) would be cut by the exit:
 * the sequence's last steps wait until the pool is quiet and no {@code CompletableFuture}
 * task runs on a thread of its own (where the pool has fewer than two threads,
 * {@code CompletableFuture} starts a thread per task instead), within a budget, so that
 * such work either finishes or the step that waited for it is named in the report as not
 * finished.
 */
final class CommonPool {

	private static final long RECHECK_MILLIS = 50;

	/**
	 * The frames of {@code CompletableFuture}'s own asynchronous tasks
	 * ({@code AsyncSupply}, {@code AsyncRun}).
	 */
	private static final String ASYNC_TASK = CompletableFuture.class.getName() + "$Async";

	private CommonPool() {
	}

	/** Whether a bean is the common pool itself. */
	static boolean is(Object bean) {
		return bean == ForkJoinPool.commonPool();
	}

	/** Returns once no such work runs or waits; the step's budget bounds the wait. */
	static void awaitQuiet() throws InterruptedException {
		// Twice in a row: a task submitted to an idle pool is queued an instant before a
		// worker runs it.
		int quietChecks = 0;
		while (quietChecks < 2) {
			quietChecks = (poolQuiet() && !asyncTaskThreadRunning()) ? quietChecks + 1 : 0;
			Thread.sleep(RECHECK_MILLIS);
		}
	}

	private static boolean poolQuiet() {
		ForkJoinPool pool = ForkJoinPool.commonPool();
		return pool.isQuiescent() && !pool.hasQueuedSubmissions() && pool.getQueuedTaskCount() == 0;
	}

	private static boolean asyncTaskThreadRunning() {
		if (ForkJoinPool.getCommonPoolParallelism() > 1) {
			return false;
		}
		for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
			if (thread.getKey() instanceof ForkJoinWorkerThread) {
				continue;
			}
			for (StackTraceElement frame : thread.getValue()) {
				if (frame.getClassName().startsWith(ASYNC_TASK)) {
					return true;
				}
			}
		}
		return false;
	}

}
