package dev.lifecycle.autoconfigure.process;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleManager;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The last moment before the halt that {@link ShutdownExit} decides on when the process
 * outlives the ceiling: the log names every thread that can hold the process (and the
 * bean each one destroys), the report records the halt, then the {@link CeilingHaltHook}s
 * run in order. All happen on a thread of their own, and {@link #run()} returns when they
 * are done or after {@link CeilingBounds#BEFORE_HALT}, whichever comes first: a push over
 * the network must not move the halt. It decides nothing and halts nothing.
 */
@Internal
public final class BeforeCeilingHalt {

	/**
	 * The halt's lines keep the logger name they always had, which users filter and
	 * configure.
	 */
	private static final Log logger = LogFactory.getLog("dev.lifecycle.autoconfigure.process.CeilingWatchdog");

	private final LifecycleManager manager;

	private final BeanDestructionTracker destructions;

	private final List<CeilingHaltHook> hooks;

	/**
	 * @param manager the engine whose report records the halt
	 * @param hooks what to run, in order; what a hook throws is logged and the next one
	 * runs
	 */
	public BeforeCeilingHalt(LifecycleManager manager, BeanDestructionTracker destructions,
			List<CeilingHaltHook> hooks) {
		this.manager = manager;
		this.destructions = destructions;
		this.hooks = List.copyOf(hooks);
	}

	/**
	 * Logs the threads at work and runs the hooks, returning at most
	 * {@link CeilingBounds#BEFORE_HALT} later.
	 */
	public void run() {
		Thread last = new Thread(this::logAndRunHooks, "lifecycle-ceiling-diagnostics");
		last.setDaemon(true);
		try {
			last.start();
			last.join(CeilingBounds.BEFORE_HALT.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void logAndRunHooks() {
		Duration ceiling = this.manager.globalShutdownTimeout();
		logger.error(diagnostics(ceiling));
		// The report says the halt before the hooks: one (a push over the network) may
		// use
		// up the time.
		try {
			LifecycleHost.of(this.manager)
				.recordHalt("Lifecycle: the process was still running " + CeilingBounds.HALT.toMillis()
						+ " ms after the global shutdown timeout of " + ceiling
						+ ", held by what ran after the sequence; halted with exit code " + ExitCodes.CEILING
						+ " (the log names the threads that held it)");
		}
		catch (RuntimeException ex) {
			logger.error("Lifecycle: recording the halt failed", ex);
		}
		for (CeilingHaltHook hook : this.hooks) {
			try {
				hook.beforeHalt();
			}
			catch (RuntimeException ex) {
				logger.error("Lifecycle: " + hook + " failed before the halt", ex);
			}
		}
	}

	private String diagnostics(Duration ceiling) {
		StringBuilder message = new StringBuilder("Lifecycle: the process is still running ")
			.append(CeilingBounds.HALT.toMillis())
			.append(" ms after the global shutdown timeout of ")
			.append(ceiling)
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
