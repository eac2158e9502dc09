package dev.lifecycle.autoconfigure.process;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.TriggerSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Handles SIGTERM, SIGINT and SIGHUP alike from early in the context's refresh. The first
 * signal starts the coordinated shutdown, whatever is already under way (a pre-stop file
 * then SIGTERM is one shutdown); a second one before the report halts at once with 128;
 * one after the report changes nothing. Without it the JVM would exit with 143 whatever
 * the shutdown's outcome and ignore a second signal.
 */
@Internal
public final class SignalTrap {

	private static final Log logger = LogFactory.getLog(SignalTrap.class);

	/** The signals Lifecycle handles, here and in the {@link EarlySignalTrap}. */
	static final List<String> SIGNALS = List.of("TERM", "INT", "HUP");

	private final LifecycleManager manager;

	private final ShutdownExit exit;

	private final IntConsumer halt;

	private final AtomicInteger received = new AtomicInteger();

	private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();

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
	 * Installs the handlers; a signal the JVM reserves (e.g. under {@code -Xrs}) is left
	 * alone.
	 */
	synchronized void install() {
		for (String name : SIGNALS) {
			Signal signal = new Signal(name);
			try {
				SignalHandler before = Signal.handle(signal, (received) -> handle("SIG" + received.getName()));
				if (before == SignalHandler.SIG_IGN) {
					ignored(name);
				}
				this.previous.put(signal, before);
			}
			catch (IllegalArgumentException ex) {
				logger.warn("Lifecycle: cannot handle SIG" + name + " (" + ex.getMessage()
						+ "); it will end the JVM without Lifecycle's exit code");
			}
		}
		// The early trap held the signals since the application started: restore the
		// JVM's handlers
		// one day, not the early ones, and act on what already arrived once the engine
		// has started
		// and every listener hears of it (see replayEarlySignals).
		EarlySignalTrap.TakeOver early = EarlySignalTrap.takeOver();
		this.previous.putAll(early.originals());
		this.early.addAll(early.signals());
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
	 * Restores the previous handlers, unless a signal already arrived: then a second one
	 * must still force the exit.
	 */
	public synchronized void uninstall() {
		if (this.received.get() > 0) {
			return;
		}
		this.previous.forEach(Signal::handle);
		this.previous.clear();
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
	 * What a trapped signal does; called on the JVM's signal thread, so it must not
	 * block.
	 */
	void handle(String signal) {
		long arrived = System.nanoTime();
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
			return;
		}
		if (this.manager.report().isPresent()) {
			logger.info("Lifecycle: received " + signal + " after the shutdown completed; the exit with the "
					+ "report's code is under way");
			return;
		}
		int code = LifecycleHost.of(this.manager).forceExit();
		// Nothing else runs between the record and the halt: no hook, no close, no flush.
		logger.error("Lifecycle: halting with code " + code + ", "
				+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - arrived) + " ms after " + signal);
		this.halt.accept(code);
	}

}
