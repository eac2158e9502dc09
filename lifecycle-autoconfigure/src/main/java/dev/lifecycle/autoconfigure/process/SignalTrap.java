package dev.lifecycle.autoconfigure.process;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownSignal;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.TriggerSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Handles the {@link ShutdownSignal}s alike from early in the context's refresh, each as
 * {@link ShutdownSignal#arrivals()} says. Without it the JVM would exit with its own code
 * whatever the shutdown's outcome and ignore a second signal. Each application in the JVM
 * has its own trap, and the {@link SignalOwner} hands every signal to all of them at
 * once.
 */
@Internal
public final class SignalTrap {

	private static final Log logger = LogFactory.getLog(SignalTrap.class);

	private final LifecycleManager manager;

	private final ShutdownExit exit;

	private final IntConsumer halt;

	private final AtomicInteger received = new AtomicInteger();

	/** How this trap listens to the {@link SignalOwner}. */
	private final SignalOwner.Listener listener = this::receive;

	/** Whether it listens; guarded by this. */
	private boolean installed;

	private final List<String> early = new ArrayList<>();

	SignalTrap(LifecycleManager manager, ShutdownExit exit) {
		this(manager, exit, (code) -> Runtime.getRuntime().halt(code));
	}

	SignalTrap(LifecycleManager manager, ShutdownExit exit, IntConsumer halt) {
		this.manager = manager;
		this.exit = exit;
		this.halt = halt;
	}

	/**
	 * Starts listening to the signals through the JVM's {@link SignalOwner}, beside every
	 * other application's trap; a signal the JVM reserves (e.g. under {@code -Xrs}) is
	 * left alone.
	 */
	synchronized void install() {
		SignalOwner.Dispositions dispositions = SignalOwner.jvm().listen(this.listener);
		dispositions.ignored().forEach(SignalTrap::ignored);
		dispositions.reserved()
			.forEach((reserved) -> logger.warn(
					"Lifecycle: cannot handle SIG" + reserved + "; it will end the JVM without Lifecycle's exit code"));
		this.installed = true;
		// The early trap held the signals since the application started: act on what
		// already arrived once the engine has started and every listener hears of it
		// (see replayEarlySignals).
		this.early.addAll(EarlySignalTrap.takeOver());
	}

	/**
	 * A signal the process was started with set to be ignored ({@code nohup} does so for
	 * SIGHUP, a wrapper script with {@code trap '' TERM} for SIGTERM): the JVM keeps it
	 * ignored and installs no handler, so it starts no shutdown. Said at start, since the
	 * signal itself will leave no trace.
	 */
	private static void ignored(String name) {
		String message = "Lifecycle: SIG" + name + " is ignored by this process (its parent started it so, as nohup "
				+ "does for SIGHUP or a script's trap '' " + name + "); it will not start a shutdown";
		if (name.equals("TERM")) {
			logger.warn(message + ": Kubernetes stops pods with SIGTERM, so this pod would be killed when its grace "
					+ "period ends. Start the JVM with SIGTERM at its default (exec java, no trap '' TERM)");
		}
		else {
			logger.info(message);
		}
	}

	/**
	 * Acts on the signals the early trap held, as if they arrived now; called once the
	 * engine has started, before the exit is released, so the start then ends cleanly.
	 */
	public synchronized void replayEarlySignals() {
		List<String> signals = List.copyOf(this.early);
		this.early.clear();
		signals.forEach(this::handle);
	}

	/**
	 * Stops listening, so that the JVM gets its own handling back once no other
	 * application listens, unless a signal already arrived: then a second one must still
	 * force the exit.
	 */
	public synchronized void uninstall() {
		if (this.received.get() > 0 || !this.installed) {
			return;
		}
		SignalOwner.jvm().leave(this.listener);
		this.installed = false;
	}

	/**
	 * When the context is destroyed: gives the JVM its own signal handling back, unless
	 * Lifecycle is ending the process (a later SIGTERM must not race its exit with 143).
	 */
	void close() {
		if (!this.exit.ownsProcess()) {
			uninstall();
		}
	}

	/**
	 * What a trapped signal does, halting at once when it forces the exit; called on the
	 * JVM's signal thread, so it must not block.
	 */
	void handle(String signal) {
		long arrived = System.nanoTime();
		OptionalInt code = receive(signal);
		if (code.isPresent()) {
			logger.error("Lifecycle: halting with code " + code.getAsInt() + ", "
					+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - arrived) + " ms after " + signal);
			this.halt.accept(code.getAsInt());
		}
	}

	/**
	 * What a trapped signal does to this application: the first starts its shutdown, a
	 * second one before its report records a forced exit.
	 * @return the code to halt with at once, or empty
	 */
	private OptionalInt receive(String signal) {
		if (this.received.incrementAndGet() == 1) {
			Optional<ShutdownTrigger> under = this.manager.trigger();
			if (under.isPresent()) {
				// Kubernetes' SIGTERM after the preStop hook: the same shutdown, not a
				// new one.
				logger.info("Lifecycle: received " + signal + "; the shutdown is already under way (reason="
						+ under.get().reason().label() + ", component=" + under.get().component() + ")");
			}
			else {
				logger.info("Lifecycle: received " + signal + "; starting the coordinated shutdown");
				this.manager.triggerShutdown(ShutdownReason.SIGNAL, TriggerSource.SIGNAL.label());
			}
			this.exit.begin();
			return OptionalInt.empty();
		}
		if (this.manager.report().isPresent()) {
			logger.info("Lifecycle: received " + signal + " after the shutdown completed; the exit with the "
					+ "report's code is under way");
			return OptionalInt.empty();
		}
		return OptionalInt.of(LifecycleHost.of(this.manager).forceExit());
	}

}
