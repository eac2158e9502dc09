package dev.lifecycle.autoconfigure.process;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import dev.lifecycle.core.ShutdownSignal;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The one owner of the {@link ShutdownSignal}s in the JVM. The JVM keeps one handler per
 * signal, so each application that installed its own would take the signals from the one
 * before it: here every application's {@link ShutdownExit} (and the
 * {@link EarlySignalTrap} of one still starting) only listens, and each signal reaches
 * all of them at once, in the order they began to listen. When a signal forces the exit,
 * each listener first records it in its own report, then the JVM halts once, with the
 * worst code. The JVM's own handlers come back when the last listener leaves.
 */
final class SignalOwner {

	private static final Log logger = LogFactory.getLog(SignalOwner.class);

	private static final SignalOwner jvm = new SignalOwner(ProcessExit::halt);

	private final IntConsumer halt;

	/** The JVM's own handlers, while the owner's are installed; guarded by this. */
	private final Map<Signal, SignalHandler> originals = new LinkedHashMap<>();

	/** Signals the process was started with set to be ignored; guarded by this. */
	private final List<String> ignored = new ArrayList<>();

	/** Signals the JVM reserves (under {@code -Xrs}); guarded by this. */
	private final List<String> reserved = new ArrayList<>();

	private final List<Listener> listeners = new ArrayList<>();

	SignalOwner(IntConsumer halt) {
		this.halt = halt;
	}

	/** The owner of this JVM's signals. */
	static SignalOwner jvm() {
		return jvm;
	}

	/**
	 * Adds a listener, installing the handlers if it is the first.
	 * @return what the process does with each signal: the names of those it ignores
	 * (started so, as {@code nohup} does) and of those the JVM reserves; neither reaches
	 * a listener
	 */
	synchronized Dispositions listen(Listener listener) {
		if (this.listeners.isEmpty()) {
			install();
		}
		if (!this.listeners.contains(listener)) {
			this.listeners.add(listener);
		}
		return new Dispositions(Set.copyOf(this.ignored), Set.copyOf(this.reserved));
	}

	/**
	 * Removes a listener; when it was the last, gives the JVM its own handlers back.
	 */
	synchronized void leave(Listener listener) {
		if (this.listeners.remove(listener) && this.listeners.isEmpty()) {
			this.originals.forEach(Signal::handle);
			this.originals.clear();
			this.ignored.clear();
			this.reserved.clear();
		}
	}

	private void install() {
		for (ShutdownSignal shutdownSignal : ShutdownSignal.values()) {
			String name = shutdownSignal.name();
			Signal signal = new Signal(name);
			try {
				SignalHandler before = Signal.handle(signal, (received) -> dispatch("SIG" + received.getName()));
				if (before == SignalHandler.SIG_IGN) {
					this.ignored.add(name);
				}
				this.originals.put(signal, before);
			}
			catch (IllegalArgumentException ex) {
				this.reserved.add(name + " (" + ex.getMessage() + ")");
			}
		}
	}

	/**
	 * Hands a signal to every listener; called on the JVM's signal thread, so neither
	 * this nor a listener blocks.
	 */
	void dispatch(String signal) {
		long arrived = System.nanoTime();
		List<Listener> each;
		synchronized (this) {
			each = List.copyOf(this.listeners);
		}
		int[] worst = { -1 };
		ProcessExit.jvm().together(() -> {
			for (Listener listener : each) {
				try {
					listener.receive(signal)
						.ifPresent((code) -> worst[0] = (worst[0] < 0) ? code : ProcessExit.worse(worst[0], code));
				}
				catch (RuntimeException ex) {
					logger.error("Lifecycle: handling " + signal + " failed", ex);
				}
			}
		});
		if (worst[0] >= 0) {
			// Nothing else runs between the records and the halt: no hook, no close, no
			// flush.
			logger.error("Lifecycle: halting with code " + worst[0] + ", "
					+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - arrived) + " ms after " + signal);
			this.halt.accept(worst[0]);
		}
	}

	/** One application's handling of the signals. */
	@FunctionalInterface
	interface Listener {

		/**
		 * Acts on a signal without blocking.
		 * @return the code to halt the JVM with at once (a second signal before the
		 * report), or empty
		 */
		OptionalInt receive(String signal);

	}

	/**
	 * What the process does with the signals, apart from handing them to Lifecycle.
	 *
	 * @param ignored the names of the signals it ignores
	 * @param reserved the signals the JVM reserves, each with why
	 */
	record Dispositions(Set<String> ignored, Set<String> reserved) {

		/**
		 * Says at start what will not start a shutdown, since such a signal leaves no
		 * trace: a signal the process was started with set to be ignored ({@code nohup}
		 * does so for SIGHUP, a wrapper script with {@code trap '' TERM} for SIGTERM)
		 * keeps being ignored, and one the JVM reserves ends the JVM with its own code.
		 */
		void warnOfWhatItCannotHandle() {
			for (String name : this.ignored) {
				String message = "Lifecycle: SIG" + name + " is ignored by this process (its parent started it so, as "
						+ "nohup does for SIGHUP or a script's trap '' " + name + "); it will not start a shutdown";
				if (name.equals("TERM")) {
					ShutdownExit.signalLogger.warn(message
							+ ": Kubernetes stops pods with SIGTERM, so this pod would be killed when "
							+ "its grace period ends. Start the JVM with SIGTERM at its default (exec java, no trap "
							+ "'' TERM)");
				}
				else {
					ShutdownExit.signalLogger.info(message);
				}
			}
			this.reserved.forEach((reserved) -> ShutdownExit.signalLogger.warn(
					"Lifecycle: cannot handle SIG" + reserved + "; it will end the JVM without Lifecycle's exit code"));
		}

	}

}
