package dev.lifecycle.autoconfigure.process;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownSignal;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.TriggerSource;
import dev.lifecycle.spring.LifecycleExit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.ExitCodeGenerator;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The one owner of an application's end, in the order it happens:
 * <ol>
 * <li>The {@link ShutdownSignal}s reach it through the JVM's {@link SignalOwner} from
 * early in the refresh: the first starts the shutdown (or is the one already under way),
 * a second one before the report halts at once with {@link ExitCodes#FORCED}, recorded
 * first. Without it the JVM would exit with its own code and ignore a second signal.</li>
 * <li>Who ends the process: for a shutdown that did not start with the context closing,
 * it closes the context at once on a non-daemon thread, so that every trigger goes
 * through the same close and beans stop at the same point; whoever else closes the
 * context owns the process. As the {@link ExitCodeGenerator} it makes
 * {@code SpringApplication.exit} run the whole sequence and return the report's
 * code.</li>
 * <li>The exit: the report's code goes to {@link ProcessExit}, which exits the JVM once,
 * with the worst code of the applications one signal reached, through
 * {@link LifecycleExit}.</li>
 * <li>The ceiling bounds all of it. Every bound is an offset of the one deadline the
 * engine sets at the trigger ({@link LifecycleHost#ceilingDeadline()}): a process still
 * ending {@link CeilingBounds#HALT} past it is halted with {@link ExitCodes#CEILING}
 * (after at most {@link CeilingBounds#BEFORE_HALT} for {@link BeforeCeilingHalt}), and a
 * wait for the report gives up {@link CeilingBounds#REPORT_WAIT} past it. A halt, not an
 * exit, because {@code System.exit} blocks for ever once shutdown hooks are running.</li>
 * </ol>
 */
@Internal
public final class ShutdownExit implements LifecycleListener, ExitCodeGenerator {

	private static final Log logger = LogFactory.getLog(ShutdownExit.class);

	/**
	 * What the signals do is logged under the name it always had, which users filter and
	 * configure.
	 */
	static final Log signalLogger = LogFactory.getLog("dev.lifecycle.autoconfigure.process.SignalTrap");

	private final ConfigurableApplicationContext context;

	private final LifecycleExit exit;

	private final boolean closeContext;

	private final LifecycleManager manager;

	private final IntConsumer halt;

	private final BeanDestructionTracker destructions;

	/** What runs before a halt past the ceiling; {@code null} when it never halts. */
	private final @Nullable Supplier<List<CeilingHaltHook>> haltHooks;

	/** How this application listens to the {@link SignalOwner}. */
	private final SignalOwner.Listener listener = this::receive;

	private final AtomicInteger signals = new AtomicInteger();

	/** Whether it listens to the signals; guarded by this. */
	private boolean listening;

	/** The signals the early trap held until the engine started; guarded by this. */
	private final List<String> early = new ArrayList<>();

	/** Whether whoever else closed the context owns the process; guarded by this. */
	private boolean closedByOthers;

	/** Until the engine has started, a shutdown is only pending; guarded by this. */
	private boolean held = true;

	private boolean pending;

	/**
	 * The thread that closes the context and exits: set once Lifecycle owns the process.
	 */
	private volatile @Nullable Thread exiting;

	/** Whether the watchdog started; guarded by this. */
	private boolean watching;

	/**
	 * @param haltHooks what to run just before a halt past the ceiling, looked up when
	 * the shutdown begins (the context may be gone by the halt), or {@code null} when the
	 * process must never be halted
	 */
	ShutdownExit(ConfigurableApplicationContext context, LifecycleExit exit, boolean closeContext,
			LifecycleManager manager, IntConsumer halt, BeanDestructionTracker destructions,
			@Nullable Supplier<List<CeilingHaltHook>> haltHooks) {
		this.context = context;
		this.exit = exit;
		this.closeContext = closeContext;
		this.manager = manager;
		this.halt = halt;
		this.destructions = destructions;
		this.haltHooks = haltHooks;
	}

	// 1. The signals.

	/**
	 * Starts listening to the signals, beside every other application of the JVM; a
	 * signal the JVM reserves (e.g. under {@code -Xrs}) is left alone. From early in the
	 * refresh, not only once the engine has started: a signal during start-up must not
	 * end the JVM with 143 and half-started beans.
	 */
	synchronized void listenToSignals() {
		SignalOwner.jvm().listen(this.listener).warnOfWhatItCannotHandle();
		this.listening = true;
		// The early trap held the signals since the application started: act on what
		// already arrived once the engine has started and every listener hears of it
		// (see replayEarlySignals).
		this.early.addAll(EarlySignalTrap.takeOver());
	}

	/** Whether it listens to the process's signals. */
	public synchronized boolean listensToSignals() {
		return this.listening;
	}

	/**
	 * Acts on the signals the early trap held, as if they arrived now; called once the
	 * engine has started, before {@link #release()}, so the start then ends cleanly.
	 */
	public void replayEarlySignals() {
		List<String> signals;
		synchronized (this) {
			signals = List.copyOf(this.early);
			this.early.clear();
		}
		signals.forEach(this::handle);
	}

	/**
	 * Stops listening, so that the JVM gets its own handling back once no other
	 * application listens, unless a signal already arrived: then a second one must still
	 * force the exit.
	 */
	public synchronized void stopListening() {
		if (this.signals.get() > 0 || !this.listening) {
			return;
		}
		SignalOwner.jvm().leave(this.listener);
		this.listening = false;
	}

	/**
	 * When the context is destroyed: gives the JVM its own signal handling back, unless
	 * Lifecycle is ending the process (a later SIGTERM must not race its exit with 143).
	 */
	void close() {
		if (!ownsProcess()) {
			stopListening();
		}
	}

	/**
	 * What a signal does, halting at once when it forces the exit; called on the JVM's
	 * signal thread, so it must not block.
	 */
	void handle(String signal) {
		long arrived = System.nanoTime();
		OptionalInt code = receive(signal);
		if (code.isPresent()) {
			signalLogger.error("Lifecycle: halting with code " + code.getAsInt() + ", "
					+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - arrived) + " ms after " + signal);
			this.halt.accept(code.getAsInt());
		}
	}

	/**
	 * What a signal does to this application: the first starts its shutdown, a second one
	 * before its report records a forced exit.
	 * @return the code to halt with at once, or empty
	 */
	private OptionalInt receive(String signal) {
		if (this.signals.incrementAndGet() == 1) {
			Optional<ShutdownTrigger> under = this.manager.trigger();
			if (under.isPresent()) {
				// Kubernetes' SIGTERM after the preStop hook: the same shutdown, not a
				// new one.
				signalLogger.info("Lifecycle: received " + signal + "; the shutdown is already under way (reason="
						+ under.get().reason().label() + ", component=" + under.get().component() + ")");
			}
			else {
				signalLogger.info("Lifecycle: received " + signal + "; starting the coordinated shutdown");
				this.manager.triggerShutdown(ShutdownReason.SIGNAL, TriggerSource.SIGNAL.label());
			}
			begin();
			return OptionalInt.empty();
		}
		if (this.manager.report().isPresent()) {
			signalLogger.info("Lifecycle: received " + signal + " after the shutdown completed; the exit with the "
					+ "report's code is under way");
			return OptionalInt.empty();
		}
		return OptionalInt.of(LifecycleHost.of(this.manager).forceExit());
	}

	// 2. Who ends the process.

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
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
	 * A shutdown began: the ceiling is watched whoever ends the process; unless someone
	 * else owns it, Lifecycle starts closing the context and exiting, once. While the
	 * engine is starting the exit is only remembered: see {@link #hold()}.
	 */
	synchronized void begin() {
		watchTheCeiling();
		if (this.held) {
			this.pending = true;
			return;
		}
		if (this.exiting != null || this.closedByOthers) {
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
	 * Holds back {@link #begin()} while the engine starts, until {@link #release()}: if
	 * the start fails, the failed refresh owns the process (Spring Boot reports it, exit
	 * 1).
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
		this.closedByOthers = this.exiting == null;
		notifyAll();
	}

	/**
	 * Whether Lifecycle closes the context and ends the process, rather than whoever
	 * closed it.
	 */
	public boolean ownsProcess() {
		return this.exiting != null;
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
			// The exit gives up on the report at the same instant; this gives it as long
			// again to end the JVM.
			thread.join(Math.max(1, reportWait(this.manager).plus(CeilingBounds.REPORT_WAIT).toMillis()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The thread that ends the process, once this has heard that the shutdown began: the
	 * sequence tells its listeners on its own thread, a moment after the trigger.
	 * {@code null} if someone else owns the process or nothing was heard in time.
	 */
	private synchronized @Nullable Thread awaitExiting() {
		long giveUpAt = System.nanoTime() + reportWait(this.manager).toNanos();
		while (this.exiting == null && !this.closedByOthers) {
			long left = giveUpAt - System.nanoTime();
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

	// 3. The exit.

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
		ProcessExit.jvm().exit(this, exitCode, this.exit, reportWait(this.manager));
	}

	/** The report's exit code, or the ceiling's if no report comes in time. */
	private int awaitExitCode() {
		try {
			Optional<ShutdownReport> report = this.manager.awaitTermination(reportWait(this.manager));
			if (report.isPresent()) {
				return report.get().exitCode();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return ExitCodes.CEILING;
		}
		// No report means the engine never finished, which only its ceiling can explain.
		logger.error("Lifecycle: no shutdown report within "
				+ this.manager.globalShutdownTimeout().plus(CeilingBounds.REPORT_WAIT));
		return ExitCodes.CEILING;
	}

	/**
	 * How long a wait for the report has left: until {@link CeilingBounds#REPORT_WAIT}
	 * past the ceiling's deadline (the whole ceiling and the slack from now, before a
	 * shutdown began); never negative.
	 */
	public static Duration reportWait(LifecycleManager manager) {
		long giveUpAt = deadline(manager) + CeilingBounds.REPORT_WAIT.toNanos();
		return Duration.ofNanos(Math.max(0, giveUpAt - System.nanoTime()));
	}

	private static long deadline(LifecycleManager manager) {
		return LifecycleHost.of(manager)
			.ceilingDeadline()
			.orElseGet(() -> System.nanoTime() + manager.globalShutdownTimeout().toNanos());
	}

	// 4. The ceiling.

	/**
	 * Starts the watchdog once, for {@link CeilingBounds#HALT} past the ceiling's
	 * deadline. A daemon thread: it must never be what keeps the JVM alive.
	 */
	private synchronized void watchTheCeiling() {
		if (this.haltHooks == null || this.watching) {
			return;
		}
		List<CeilingHaltHook> hooks = List.of();
		try {
			hooks = List.copyOf(this.haltHooks.get());
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: could not look up what to run before a ceiling halt", ex);
		}
		long haltAt = deadline(this.manager) + CeilingBounds.HALT.toNanos();
		BeforeCeilingHalt beforeHalt = new BeforeCeilingHalt(this.manager, this.destructions, hooks);
		Thread thread = new Thread(() -> haltPastTheCeiling(haltAt, beforeHalt), "lifecycle-ceiling-watchdog");
		thread.setDaemon(true);
		this.watching = true;
		thread.start();
	}

	private void haltPastTheCeiling(long haltAt, BeforeCeilingHalt beforeHalt) {
		long remaining;
		try {
			while ((remaining = haltAt - System.nanoTime()) > 0) {
				TimeUnit.NANOSECONDS.sleep(remaining);
			}
		}
		catch (InterruptedException ex) {
			return;
		}
		if (!isEnding()) {
			// The context closed and nobody is exiting the JVM (a test, a DevTools
			// restart): it is left alone.
			return;
		}
		try {
			beforeHalt.run();
		}
		finally {
			this.halt.accept(ExitCodes.CEILING);
		}
	}

	/**
	 * Whether the application is still on its way out: its context is closing, or the JVM
	 * is running its shutdown hooks.
	 */
	boolean isEnding() {
		return (this.context.isClosed() && this.context.isActive()) || ProcessExit.isJvmShuttingDown();
	}

	/**
	 * Whether the JVM is running its shutdown hooks: a context closed then was closed by
	 * the JVM's end (a signal Lifecycle does not trap), not by a failed start.
	 */
	public boolean jvmIsEnding() {
		return ProcessExit.isJvmShuttingDown();
	}

	/**
	 * Halts the JVM with 129 after the ceiling fired in a shutdown that the JVM's own
	 * shutdown hook started (signals not trapped): run by Spring Boot's shutdown handlers
	 * once the contexts are closed. Any other ending keeps its code.
	 */
	void haltIfTheCeilingFired() {
		this.manager.report()
			.filter(ShutdownReport::ceilingFired)
			.ifPresent((report) -> this.halt.accept(report.exitCode()));
	}

}
