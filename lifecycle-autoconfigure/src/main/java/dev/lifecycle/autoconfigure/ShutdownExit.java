package dev.lifecycle.autoconfigure;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.spring.LifecycleExit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * The one way out of the process for a shutdown that did not start with the context closing: on
 * the first instant of such a shutdown it closes the application context on a non-daemon thread
 * (the {@link LifecycleCoordinator} blocks that close until the engine's report, while the web
 * server keeps serving), then hands the report's exit code to {@link LifecycleExit}.
 *
 * <p>Closing at once rather than after the report makes every trigger go through the same context
 * close, so beans in higher Spring phases stop at the same point whatever started the shutdown.
 * When the context belongs to someone else ({@code lifecycle.close-context=false}, the default
 * under Spring's test framework) it only waits for the report before calling
 * {@link LifecycleExit}.
 */
final class ShutdownExit implements LifecycleListener {

	private static final Log logger = LogFactory.getLog(ShutdownExit.class);

	private final ConfigurableApplicationContext context;

	private final LifecycleExit exit;

	private final boolean closeContext;

	private final Duration reportWait;

	private final AtomicReference<Owner> owner = new AtomicReference<>();

	private final CompletableFuture<ShutdownReport> report = new CompletableFuture<>();

	private boolean held;

	private boolean pending;

	/**
	 * @param closeContext whether to close the context
	 * @param reportWait how long to wait for the report after the close; the coordinator
	 * normally holds the close until the report, so this matters only without it
	 */
	ShutdownExit(ConfigurableApplicationContext context, LifecycleExit exit, boolean closeContext,
			Duration reportWait) {
		this.context = context;
		this.exit = exit;
		this.closeContext = closeContext;
		this.reportWait = reportWait;
	}

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
		begin();
	}

	@Override
	public void onShutdownCompleted(ShutdownReport report) {
		this.report.complete(report);
	}

	/**
	 * Starts closing the context and exiting, once; later calls do nothing. While the engine is
	 * starting the request is only remembered: see {@link #hold()}.
	 */
	synchronized void begin() {
		if (this.held) {
			this.pending = true;
			return;
		}
		if (!this.owner.compareAndSet(null, Owner.LIFECYCLE)) {
			return;
		}
		Thread thread = new Thread(this::closeAndExit, "lifecycle-exit");
		// A signal handler's thread is a daemon and so would be this one: the JVM could then end
		// with code 0 as soon as the web server's last thread stops, before exit() runs.
		thread.setDaemon(false);
		thread.start();
	}

	/**
	 * Holds back {@link #begin()} while the engine starts inside the context's refresh. If the
	 * start fails, the failed refresh owns the process (Spring Boot reports the failure and the
	 * JVM exits with 1); exiting from here would race that report.
	 */
	synchronized void hold() {
		this.held = true;
	}

	/** The engine started: a shutdown that began meanwhile now closes the context. */
	synchronized void release() {
		this.held = false;
		if (this.pending) {
			this.pending = false;
			begin();
		}
	}

	/**
	 * The context is closing by someone else's hand; whoever closes it owns the process, so
	 * Lifecycle will not exit it.
	 */
	synchronized void contextClosing() {
		this.held = false;
		this.pending = false;
		this.owner.compareAndSet(null, Owner.CONTEXT);
	}

	/** Whether Lifecycle closes the context and ends the process, rather than whoever closed it. */
	boolean ownsProcess() {
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
		this.exit.exit(exitCode);
	}

	private int awaitExitCode() {
		try {
			return this.report.get(this.reportWait.toNanos(), TimeUnit.NANOSECONDS).exitCode();
		}
		catch (TimeoutException | ExecutionException ex) {
			// No report means the engine never finished, which only its ceiling can explain.
			logger.error("Lifecycle: no shutdown report within " + this.reportWait);
			return ExitCodes.CEILING;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return ExitCodes.CEILING;
		}
	}

	private enum Owner {

		/** Lifecycle closes the context and hands the exit code to {@link LifecycleExit}. */
		LIFECYCLE,

		/** Something else closed the context and owns the process. */
		CONTEXT

	}

}
