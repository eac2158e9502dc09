package dev.lifecycle.autoconfigure.process;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.TriggerSource;
import dev.lifecycle.spring.LifecycleExit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.ExitCodeGenerator;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Decides who ends the process, and how. For a shutdown that did not start with the
 * context closing, it closes the context at once on a non-daemon thread, so that every
 * trigger goes through the same close and beans stop at the same point, then hands the
 * report's exit code to {@link LifecycleExit}; whoever else closes the context owns the
 * process. Whatever the trigger, it arms the {@link CeilingWatchdog}; as the
 * {@link ExitCodeGenerator} it makes {@code SpringApplication.exit} run the whole
 * sequence and return the report's code. The JVM itself is exited once by
 * {@link ProcessExit}, with the worst code of the applications Lifecycle ends together.
 * See {@code docs/whole-application.md}, the ceiling.
 */
@Internal
public final class ShutdownExit implements LifecycleListener, ExitCodeGenerator {

	/** Slack over the engine's ceiling before a close gives up waiting for the report. */
	public static final Duration CEILING_SLACK = Duration.ofSeconds(5);

	private static final Log logger = LogFactory.getLog(ShutdownExit.class);

	private final ConfigurableApplicationContext context;

	private final LifecycleExit exit;

	private final boolean closeContext;

	private final Duration reportWait;

	private final LifecycleManager manager;

	private final @Nullable CeilingWatchdog watchdog;

	private final AtomicReference<@Nullable Owner> owner = new AtomicReference<>();

	/**
	 * Until the engine has started, a shutdown only remembers that it must close the
	 * context.
	 */
	private boolean held = true;

	private boolean pending;

	/** The thread that closes the context and exits, once Lifecycle owns the process. */
	private volatile @Nullable Thread exiting;

	/**
	 * @param closeContext whether to close the context
	 * @param reportWait how long to wait for the report after the close; the coordinator
	 * normally holds the close until the report, so this matters only without it
	 * @param watchdog bounds the time to the process exit, or {@code null} when the
	 * process must never be halted
	 */
	ShutdownExit(ConfigurableApplicationContext context, LifecycleExit exit, boolean closeContext, Duration reportWait,
			LifecycleManager manager, @Nullable CeilingWatchdog watchdog) {
		this.context = context;
		this.exit = exit;
		this.closeContext = closeContext;
		this.reportWait = reportWait;
		this.manager = manager;
		this.watchdog = watchdog;
	}

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
		if (this.watchdog != null) {
			this.watchdog.arm(System.nanoTime());
		}
		begin();
	}

	/**
	 * Runs the whole shutdown sequence, unless one is already under way, and returns the
	 * report's exit code: {@code SpringApplication.exit(context)} calls this before it
	 * closes the context, and its caller (usually {@code System.exit}) owns the process.
	 */
	@Override
	public int getExitCode() {
		contextClosing();
		if (!this.manager.isShutdownInitiated()) {
			this.manager.triggerShutdown(ShutdownReason.REQUESTED, TriggerSource.SPRING_APPLICATION_EXIT.label());
		}
		return awaitExitCode();
	}

	/**
	 * Whether the application is still on its way out: its context is closing, or the JVM
	 * is running its shutdown hooks.
	 */
	boolean isEnding() {
		return (this.context.isClosed() && this.context.isActive()) || isJvmShuttingDown();
	}

	/**
	 * Whether the JVM is running its shutdown hooks: a context closed then was closed by
	 * the JVM's end (a signal Lifecycle does not trap), not by a failed start.
	 */
	public boolean jvmIsEnding() {
		return isJvmShuttingDown();
	}

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
	 * Ends the JVM with 129 after the ceiling fired in a shutdown that the JVM's own
	 * shutdown hook started (signals not trapped): run by Spring Boot's shutdown handlers
	 * once the contexts are closed. Any other ending keeps its code.
	 */
	void haltIfTheCeilingFired(IntConsumer halt) {
		this.manager.report()
			.filter(ShutdownReport::ceilingFired)
			.ifPresent((report) -> halt.accept(report.exitCode()));
	}

	/**
	 * Starts closing the context and exiting, once; later calls do nothing. While the
	 * engine is starting the request is only remembered: see {@link #hold()}.
	 */
	synchronized void begin() {
		if (this.watchdog != null) {
			this.watchdog.arm(System.nanoTime());
		}
		if (this.held) {
			this.pending = true;
			return;
		}
		if (!this.owner.compareAndSet(null, Owner.LIFECYCLE)) {
			return;
		}
		ProcessExit.jvm().ending(this);
		Thread thread = new Thread(this::closeAndExit, "lifecycle-exit");
		this.exiting = thread;
		notifyAll();
		// A signal handler's thread is a daemon and so would be this one: the JVM could
		// then end with code 0 as soon as the web server's last thread stops, before
		// exit() runs.
		thread.setDaemon(false);
		thread.start();
	}

	/**
	 * Called on the run's thread once the refresh is done, before Spring Boot calls the
	 * runners: if Lifecycle is already ending the process (a signal or a shutdown request
	 * during the start), the run goes no further, so that no runner begins work that the
	 * shutdown has already decided not to wait for (a batch job would be left
	 * {@code STARTED} by the exit). Returns at once otherwise, and also if the exit it
	 * waits for ends without ending the JVM (a test's exit).
	 */
	public void stopTheRunIfEnding() {
		if (!this.manager.isShutdownInitiated()) {
			return;
		}
		Thread thread = awaitExiting();
		if (thread == null || !ownsProcess()) {
			return;
		}
		logger.info("Lifecycle: the shutdown began during the start; the application's runners are not called");
		try {
			thread.join(this.reportWait.plus(CEILING_SLACK).toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Holds back {@link #begin()} while the context refreshes and the engine starts (held
	 * from construction until {@link #release()}). If the start fails, the failed refresh
	 * owns the process (Spring Boot reports the failure and the JVM exits with 1);
	 * exiting from here would race that report.
	 */
	public synchronized void hold() {
		this.held = true;
	}

	/** The engine started: a shutdown that began meanwhile now closes the context. */
	public synchronized void release() {
		this.held = false;
		if (this.pending) {
			this.pending = false;
			begin();
		}
	}

	/**
	 * The context is closing by someone else's hand; whoever closes it owns the process,
	 * so Lifecycle will not exit it.
	 */
	public synchronized void contextClosing() {
		this.held = false;
		this.pending = false;
		this.owner.compareAndSet(null, Owner.CONTEXT);
		notifyAll();
	}

	/**
	 * The thread that ends the process, once this listener has heard that the shutdown
	 * began: the sequence tells its listeners on its own thread, a moment after the
	 * trigger. {@code null} if someone else owns the process or nothing was heard in
	 * time.
	 */
	private synchronized @Nullable Thread awaitExiting() {
		long deadline = System.nanoTime() + this.reportWait.toNanos();
		while (this.exiting == null && this.owner.get() == null) {
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				return null;
			}
			try {
				TimeUnit.NANOSECONDS.timedWait(this, left);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return null;
			}
		}
		return this.exiting;
	}

	/**
	 * Whether Lifecycle closes the context and ends the process, rather than whoever
	 * closed it.
	 */
	public boolean ownsProcess() {
		return this.owner.get() == Owner.LIFECYCLE;
	}

	private void closeAndExit() {
		if (this.closeContext) {
			try {
				this.context.close();
			}
			catch (RuntimeException | Error ex) {
				logger.error("Lifecycle: closing the application context failed", ex);
			}
		}
		int exitCode = awaitExitCode();
		logger.info("Lifecycle: shutdown finished" + (this.closeContext ? " and application context closed" : "")
				+ "; exit code " + exitCode);
		// Other applications of this JVM that the same signal reached end with this one.
		ProcessExit.jvm().exit(this, exitCode, this.exit, this.reportWait);
	}

	/**
	 * The code of the engine's own report: the one future from the sequence's end to the
	 * exit, complete once the listeners have recorded it.
	 */
	private int awaitExitCode() {
		try {
			Optional<ShutdownReport> report = this.manager.awaitTermination(this.reportWait);
			if (report.isPresent()) {
				return report.get().exitCode();
			}
			// No report means the engine never finished, which only its ceiling can
			// explain.
			logger.error("Lifecycle: no shutdown report within " + this.reportWait);
			return ExitCodes.CEILING;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return ExitCodes.CEILING;
		}
	}

	private enum Owner {

		/**
		 * Lifecycle closes the context and hands the exit code to {@link LifecycleExit}.
		 */
		LIFECYCLE,

		/** Something else closed the context and owns the process. */
		CONTEXT

	}

}
