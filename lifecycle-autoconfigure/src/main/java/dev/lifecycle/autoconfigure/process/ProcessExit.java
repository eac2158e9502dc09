package dev.lifecycle.autoconfigure.process;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.spring.LifecycleExit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The JVM's one way out, for the exits and halts that {@link ShutdownExit} and the
 * {@link SignalOwner} decide on: the one halt, and the one exit. The applications in one
 * JVM that one signal reached end it once, when the last of them has its report, with the
 * worst of their codes; an application's exit waits for the others on its own non-daemon
 * thread, so the JVM cannot end with 0 in between. An application whose shutdown began
 * otherwise (a failed component, its pre-stop file) exits alone, as it would in a JVM of
 * its own. After a failed start it is also what ends a JVM that threads of the failed
 * beans would keep alive.
 */
final class ProcessExit {

	private static final Log logger = LogFactory.getLog(ProcessExit.class);

	private static final ProcessExit jvm = new ProcessExit();

	/** The round a signal being handed out on this thread gathers. */
	private final ThreadLocal<@Nullable Round> gathering = new ThreadLocal<>();

	/** The round of each application that one is in; guarded by this. */
	private final Map<Object, Round> rounds = new HashMap<>();

	/** The exit of this JVM. */
	static ProcessExit jvm() {
		return jvm;
	}

	/**
	 * Halts the JVM at once with the code: nothing else runs, no shutdown hook, no close,
	 * no flush. The only halt Lifecycle calls, whoever decided it.
	 */
	static void halt(int code) {
		Runtime.getRuntime().halt(code);
	}

	/**
	 * The worse of two exit codes, by {@link ExitCodes#severity(int)}: a code an
	 * application chose for incomplete work counts as incomplete work.
	 */
	static int worse(int one, int other) {
		return (ExitCodes.severity(other) > ExitCodes.severity(one)) ? other : one;
	}

	/**
	 * Hands out one signal: the applications whose exit begins meanwhile, on this thread,
	 * end the JVM together.
	 */
	void together(Runnable handOut) {
		this.gathering.set(new Round());
		try {
			handOut.run();
		}
		finally {
			this.gathering.remove();
		}
	}

	/**
	 * Lifecycle is ending this application: when a signal reached it along with others,
	 * the JVM's exit waits for its code.
	 */
	void ending(Object application) {
		Round round = this.gathering.get();
		if (round != null) {
			synchronized (this) {
				round.pending.add(application);
				this.rounds.put(application, round);
			}
		}
	}

	/**
	 * The application's shutdown has its code: the JVM exits through this application's
	 * {@link LifecycleExit}, with the worst code of its round, unless another application
	 * of the round still runs its shutdown; then this waits, at most {@code patience},
	 * for the last of them to exit it. Returns when the JVM does not exit (a test's
	 * {@link LifecycleExit}).
	 */
	void exit(Object application, int code, LifecycleExit exit, Duration patience) {
		int worst = code;
		synchronized (this) {
			Round mine = this.rounds.remove(application);
			if (mine != null) {
				mine.pending.remove(application);
				mine.worst = worse(mine.worst, code);
				mine.codes++;
				long deadline = System.nanoTime() + patience.toNanos();
				long remaining;
				while (!mine.done && !mine.pending.isEmpty() && (remaining = deadline - System.nanoTime()) > 0) {
					try {
						TimeUnit.NANOSECONDS.timedWait(this, remaining);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						break;
					}
				}
				if (mine.done) {
					// Another application of the round exits the JVM.
					return;
				}
				if (!mine.pending.isEmpty()) {
					logger.error("Lifecycle: " + mine.pending.size() + " other application(s) of this JVM still "
							+ "shutting down after " + patience + "; exiting without their exit codes");
				}
				mine.done = true;
				worst = mine.worst;
				notifyAll();
				if (mine.codes > 1) {
					logger.info("Lifecycle: exit code " + worst + ", the worst of the " + mine.codes
							+ " applications of this JVM that the signal reached");
				}
			}
		}
		exit.exit(worst);
	}

	/**
	 * A start failed on the given thread ({@code SpringApplication.run}'s): once that
	 * thread has ended, Spring Boot has reported the failure and the JVM should end with
	 * 1; if threads the failed beans started (a scheduler's) still hold it, it is exited
	 * with 1 then, and halted with 1 if that exit is still held {@code ceiling} later.
	 * Nothing happens while the thread lives on (its caller handles the failure).
	 */
	static void afterFailedRun(Thread run, Duration ceiling) {
		afterFailedRun(run, ceiling, System::exit, ProcessExit::halt);
	}

	static void afterFailedRun(Thread run, Duration ceiling, IntConsumer exit, IntConsumer halt) {
		Thread watcher = new Thread(() -> {
			try {
				run.join();
			}
			catch (InterruptedException ex) {
				return;
			}
			Set<String> holding = new HashSet<>();
			Thread.getAllStackTraces().keySet().forEach((thread) -> {
				if (!thread.isDaemon() && thread.isAlive() && !thread.getName().equals("DestroyJavaVM")) {
					holding.add(thread.getName());
				}
			});
			if (holding.isEmpty() || isJvmShuttingDown()) {
				// The JVM ends by itself, with 1 for the failure that ended the run.
				return;
			}
			logger.error("Lifecycle: the start failed and threads it started still hold the JVM " + holding
					+ "; exiting with code " + ExitCodes.FAILURE);
			Thread bound = new Thread(() -> {
				try {
					Thread.sleep(ceiling.toMillis());
				}
				catch (InterruptedException ex) {
					return;
				}
				logger.error("Lifecycle: the exit after the failed start is still held " + ceiling
						+ " later; halting with code " + ExitCodes.FAILURE);
				halt.accept(ExitCodes.FAILURE);
			}, "lifecycle-failed-start-halt");
			bound.setDaemon(true);
			bound.start();
			exit.accept(ExitCodes.FAILURE);
		}, "lifecycle-failed-start-exit");
		// A daemon: it must never be what keeps the JVM alive; it runs only while other
		// threads do.
		watcher.setDaemon(true);
		watcher.start();
	}

	/**
	 * Whether the JVM is running its shutdown hooks: it ends by itself, and
	 * {@code System.exit} would block for ever.
	 */
	static boolean isJvmShuttingDown() {
		Thread probe = new Thread(() -> {
		}, "lifecycle-shutdown-probe");
		try {
			Runtime.getRuntime().addShutdownHook(probe);
			Runtime.getRuntime().removeShutdownHook(probe);
			return false;
		}
		catch (IllegalStateException ex) {
			return true;
		}
	}

	/**
	 * The applications one signal reached: those still shutting down, how many have their
	 * code, the worst so far, and whether the JVM's exit is under way.
	 */
	private static final class Round {

		private final Set<Object> pending = new HashSet<>();

		private int codes;

		private int worst = ExitCodes.CLEAN;

		private boolean done;

	}

}
