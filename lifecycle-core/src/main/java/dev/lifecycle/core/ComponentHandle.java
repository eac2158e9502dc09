package dev.lifecycle.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * What a component's code holds to take part in the lifecycle. All methods are
 * thread-safe, and every method has a meaning in every state, before the manager's start
 * included; where a call has no effect in a state its documentation says so. Nothing is
 * dropped silently.
 *
 * <p>
 * {@link #isShuttingDown()}, {@link #isHealthy()} and {@link #reportHealthy()} are built
 * for hot paths: each is a few volatile accesses, with no allocation, lock or clock read.
 * A heartbeat is stamped with a coarse clock the health monitor advances many times per
 * poll interval, so a stall is found no later than one poll interval after the liveness
 * deadline has passed.
 *
 * <p>
 * The engine makes each component's handle; applications use it and do not implement it.
 */
public interface ComponentHandle {

	/** The component's registered name. */
	String name();

	/** {@code true} once this component has been told to stop. A single volatile read. */
	boolean isShuttingDown();

	/**
	 * Blocks until this component is told to stop; wakes at once, not at the next poll.
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	void awaitShutdown() throws InterruptedException;

	/**
	 * Blocks until this component is told to stop or the timeout elapses.
	 * @param timeout the longest wait
	 * @return {@code true} if the component was told to stop
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	boolean awaitShutdown(Duration timeout) throws InterruptedException;

	/**
	 * Runs the action when this component is told to stop, on the engine thread that
	 * tells it (or at once on the caller if that already happened). Keep it short; an
	 * exception is logged.
	 * @param action what to run
	 */
	void onShutdown(Runnable action);

	/**
	 * A stage that completes when this component is told to stop. It cannot be completed
	 * by callers.
	 */
	CompletionStage<Void> shutdownStage();

	/**
	 * Liveness heartbeat; also ends an unhealthy report. No allocation, no lock, no clock
	 * read; no write at all when the coarse clock has not moved since the last heartbeat.
	 * Before the start it is the heartbeat the monitor's first poll judges; once the
	 * component has ended it has no effect, since an ended component is no longer judged.
	 */
	void reportHealthy();

	/**
	 * Reports this component unhealthy until its next {@link #reportHealthy()}: every
	 * health poll in between counts as stalled, and {@code stallThreshold} of them in a
	 * row make it stalled. Once the component has ended it has no effect, since an ended
	 * component is no longer judged.
	 */
	void reportUnhealthy();

	/**
	 * With a liveness deadline, the monitor's latest verdict: {@code true} until
	 * {@code stallThreshold} consecutive polls stalled, and again once a poll finds it
	 * recovered. Without one, {@code !isShuttingDown()}.
	 */
	boolean isHealthy();

	/**
	 * A fatal failure: this component is {@link Outcome#DIED died} at this instant (the
	 * shutdown never waits for it) and a shutdown starts with reason
	 * {@link ShutdownReason#FAILURE} (exit code 1). Callable from any thread at any time.
	 * Before the manager's start it does the same, and the start then starts nothing;
	 * during a shutdown the component still dies (exit code 1) but no second shutdown
	 * starts; after the component has ended it changes nothing and is logged as ignored.
	 * @param reason what went wrong
	 */
	void signalFailure(String reason);

	/**
	 * A fatal failure, as {@link #signalFailure(String)}, keeping the cause for the log.
	 * @param cause what went wrong
	 */
	void signalFailure(Throwable cause);

	/**
	 * Requests a clean shutdown now (reason {@link ShutdownReason#REQUESTED}, exit code
	 * 0). Before the manager's start the shutdown starts at once and the start then
	 * starts nothing; once a shutdown has started the request is only logged, since the
	 * first trigger wins.
	 */
	void requestShutdown();

	/**
	 * Requests a clean shutdown after the delay; the earliest pending request wins. A
	 * request that falls due after a shutdown has started is only logged.
	 * @param delay how long to wait before triggering
	 */
	void requestShutdown(Duration delay);

	/**
	 * Declares this component's finite work done, so that its end during normal operation
	 * is a completion rather than a death. Before the manager's start it does the same:
	 * the work is finished, a process scope closed afterwards completes the component,
	 * and a component that has not ended is still started. Once the component has been
	 * told to stop it has no effect, because its end is a completion anyway; once it has
	 * ended there is nothing left to mark.
	 */
	void workCompleted();

	/**
	 * Says which of this component's work is unfinished right now and will be left for a
	 * later run, such as a batch job stopped between two chunks: each entry names one
	 * piece of work and its state. Each call replaces the previous list; an empty list
	 * says nothing is left. A shutdown that ends with entries here is not clean and exits
	 * with the service's code for incomplete work (by default
	 * {@link ExitCodes#INCOMPLETE}) unless a worse code applies, and its report lists
	 * them; so does one whose budget cut the component while the entries stood.
	 * @param work one entry per unfinished piece of work, e.g.
	 * {@code "job 'import' execution 7: STOPPED"}
	 */
	void unfinishedWork(List<String> work);

	/**
	 * A scope whose close reports this component finished, exactly once: a completion
	 * during shutdown, a death during normal operation unless {@link #workCompleted()}
	 * was called. Later closes and later ends are ignored. Meant for try-with-resources
	 * around a component's run loop. Closed before the manager's start, it ends the
	 * component the same way: a completion after {@link #workCompleted()}, otherwise a
	 * death that starts a shutdown.
	 * @return the scope
	 */
	ProcessScope processScope();

	/**
	 * Opens a critical section: while one is open the component is not drained, and
	 * shutdown waits for it within the component's budget. Close it in a finally block or
	 * try-with-resources. A section opened after the component has ended holds nothing:
	 * the outcome is already recorded.
	 * @return the open section
	 */
	CriticalSection critical();

	/**
	 * Names work this component's stop cut short: a call or request cancelled because a
	 * grace period, a budget or the ceiling ran out. Each makes the shutdown report not
	 * clean and is listed in this component's {@link ComponentReport#cut()}. Callable
	 * from any thread; what is named after the shutdown report was made (the ceiling
	 * fired) is in no report, so the caller logs it too.
	 * @param what what was cut, e.g.
	 * {@code "test.Drain/Slow (unary, running for 2004 ms)"}
	 */
	void reportCut(String what);

	String toString();

	/**
	 * A scope ending the component's process when closed; see {@link #processScope()}.
	 */
	public interface ProcessScope extends AutoCloseable {

		@Override
		void close();

	}

	/**
	 * An open critical section; see {@link #critical()}. Closing it more than once has no
	 * effect.
	 */
	public interface CriticalSection extends AutoCloseable {

		@Override
		void close();

	}

}
