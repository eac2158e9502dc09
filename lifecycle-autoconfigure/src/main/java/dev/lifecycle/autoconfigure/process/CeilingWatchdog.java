package dev.lifecycle.autoconfigure.process;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.Internal;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Bounds the time from a shutdown's first instant to the process exit, whatever runs
 * after the engine's sequence (beans left to Spring, {@code @PreDestroy} methods, JVM
 * shutdown hooks): still alive {@link #GRACE} after the global ceiling, the process logs
 * every thread that can hold it (naming the bean it destroys), runs the
 * {@link CeilingHaltHook}s and halts with {@link ExitCodes#CEILING}; the log and the
 * hooks get at most {@link #BEFORE_HALT}, so the halt is called by the ceiling +
 * {@link #GRACE} + {@link #BEFORE_HALT} at the latest. A halt, not an exit, because
 * {@code System.exit} blocks for ever once shutdown hooks are running.
 */
@Internal
public final class CeilingWatchdog {

	/**
	 * Time after the ceiling for the engine's own report and the exit to happen first.
	 */
	static final Duration GRACE = Duration.ofMillis(1500);

	/** The most the thread dump and the halt hooks may add before the halt. */
	public static final Duration BEFORE_HALT = Duration.ofMillis(500);

	private static final Log logger = LogFactory.getLog(CeilingWatchdog.class);

	private final Duration ceiling;

	private final BeanDestructionTracker destructions;

	private final IntConsumer halt;

	private final BooleanSupplier ending;

	private final Supplier<List<CeilingHaltHook>> hooks;

	private volatile List<CeilingHaltHook> armedHooks = List.of();

	private volatile @Nullable Thread thread;

	/**
	 * @param ending whether the application is still on its way out when the watchdog
	 * fires: the context is still closing or the JVM is running its shutdown hooks. A JVM
	 * whose context has closed and that nobody is exiting (a test, a DevTools restart) is
	 * left alone.
	 * @param hooks what to run just before the halt, looked up when the watchdog is armed
	 * (the context may be gone by the halt); what a hook throws is logged and the halt
	 * goes on
	 */
	public CeilingWatchdog(Duration ceiling, BeanDestructionTracker destructions, IntConsumer halt,
			BooleanSupplier ending, Supplier<List<CeilingHaltHook>> hooks) {
		this.ceiling = ceiling;
		this.destructions = destructions;
		this.halt = halt;
		this.ending = ending;
		this.hooks = hooks;
	}

	/** Starts the clock at the shutdown's first instant; later calls do nothing. */
	public synchronized void arm(long initiatedAtNanos) {
		if (this.thread != null) {
			return;
		}
		try {
			this.armedHooks = List.copyOf(this.hooks.get());
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: could not look up what to run before a ceiling halt", ex);
		}
		long deadline = initiatedAtNanos + this.ceiling.plus(GRACE).toNanos();
		Thread watchdog = new Thread(() -> watch(deadline), "lifecycle-ceiling-watchdog");
		// A daemon: the watchdog must never be what keeps the JVM alive.
		watchdog.setDaemon(true);
		this.thread = watchdog;
		watchdog.start();
	}

	private void watch(long deadline) {
		long remaining;
		try {
			while ((remaining = deadline - System.nanoTime()) > 0) {
				TimeUnit.NANOSECONDS.sleep(remaining);
			}
		}
		catch (InterruptedException ex) {
			return;
		}
		if (!this.ending.getAsBoolean()) {
			return;
		}
		// The thread dump and the hooks (a push over the network) must not move the halt:
		// they get a bounded time on a thread of their own, then the halt happens whether
		// they finished or not.
		Thread last = new Thread(this::beforeHalt, "lifecycle-ceiling-diagnostics");
		last.setDaemon(true);
		try {
			last.start();
			last.join(BEFORE_HALT.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.halt.accept(ExitCodes.CEILING);
		}
	}

	private void beforeHalt() {
		logger.error(diagnostics());
		for (CeilingHaltHook hook : this.armedHooks) {
			try {
				hook.beforeHalt();
			}
			catch (RuntimeException ex) {
				logger.error("Lifecycle: " + hook + " failed before the halt", ex);
			}
		}
	}

	private String diagnostics() {
		StringBuilder message = new StringBuilder("Lifecycle: the process is still running ").append(GRACE.toMillis())
			.append(" ms after the global shutdown timeout of ")
			.append(this.ceiling)
			.append("; halting with exit code ")
			.append(ExitCodes.CEILING)
			.append(". Threads still at work:");
		for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
			Thread thread = entry.getKey();
			if (thread == Thread.currentThread() || !holdsTheProcess(thread, entry.getValue())) {
				continue;
			}
			message.append("\n  thread \"").append(thread.getName()).append("\" ").append(thread.getState());
			String bean = destroyedBean(thread, entry.getValue());
			if (bean != null) {
				message.append(", destroying bean '").append(bean).append("'");
			}
			for (StackTraceElement element : entry.getValue()) {
				message.append("\n      at ").append(element);
			}
		}
		return message.toString();
	}

	/** Non-daemon threads (they keep the JVM alive) and Lifecycle's own stop threads. */
	private static boolean holdsTheProcess(Thread thread, StackTraceElement[] stack) {
		if (thread.getName().equals("DestroyJavaVM") || stack.length == 0) {
			return false;
		}
		return !thread.isDaemon() || thread.getName().startsWith("lifecycle-");
	}

	private @Nullable String destroyedBean(Thread thread, StackTraceElement[] stack) {
		for (StackTraceElement element : stack) {
			if (this.destructions.isDestroyFrame(element)) {
				return this.destructions.lastDestroyedBy(thread).orElse(null);
			}
		}
		return null;
	}

}
