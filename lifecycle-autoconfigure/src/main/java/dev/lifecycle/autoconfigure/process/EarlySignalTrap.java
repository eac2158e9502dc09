package dev.lifecycle.autoconfigure.process;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import dev.lifecycle.autoconfigure.LifecycleSwitch;
import dev.lifecycle.autoconfigure.RunKind;
import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownSignal;
import dev.lifecycle.core.TriggerSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.event.SpringApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Traps the {@link ShutdownSignal}s from the moment Spring Boot has the environment,
 * before any bean exists, so that a signal in the first second of a start neither ends
 * the JVM with 143 nor is lost: the first is handed to the {@link ShutdownExit} when it
 * starts listening, a second one halts at once with 128. Never installed when Lifecycle
 * or the trap is off, in a run that only prepares the service's life ({@link RunKind}) or
 * under Spring's test framework; the JVM's handlers come back if no {@link ShutdownExit}
 * takes over. It listens through the {@link SignalOwner}, so an application already
 * running in the JVM keeps hearing the signals.
 */
final class EarlySignalTrap implements ApplicationListener<SpringApplicationEvent> {

	private static final Log logger = LogFactory.getLog(EarlySignalTrap.class);

	/** How the early trap listens to the {@link SignalOwner}. */
	private static final SignalOwner.Listener listener = EarlySignalTrap::early;

	/** Guarded by the class. */
	private static final List<String> received = new ArrayList<>();

	private static boolean installed;

	/**
	 * The manager whose records a forced exit during start-up goes into, once it exists.
	 */
	private static @Nullable LifecycleManager manager;

	@Override
	public void onApplicationEvent(SpringApplicationEvent event) {
		if (event instanceof ApplicationEnvironmentPreparedEvent prepared) {
			if (wanted(prepared.getEnvironment())) {
				install();
			}
		}
		else if (event instanceof ApplicationFailedEvent || event instanceof ApplicationReadyEvent) {
			release();
		}
	}

	/**
	 * Whether Lifecycle owns the process's signals in this environment: it is on, its
	 * trap too, the run is a service's life and no test framework runs it.
	 */
	static boolean wanted(ConfigurableEnvironment environment) {
		return !LifecycleSwitch.isOff(environment)
				&& environment.getProperty("lifecycle.signals.trap", Boolean.class, true) && !underTestFramework()
				&& RunKind.current().trapsSignals();
	}

	private static boolean underTestFramework() {
		return StackWalker.getInstance()
			.walk((frames) -> frames.anyMatch((frame) -> frame.getClassName().startsWith("org.springframework.test.")
					|| frame.getClassName().startsWith("org.springframework.boot.test.")));
	}

	private static synchronized void install() {
		if (installed) {
			return;
		}
		// Reserved signals (-Xrs) and ignored ones: ShutdownExit will say so.
		SignalOwner.jvm().listen(listener);
		installed = true;
	}

	private static OptionalInt early(String signal) {
		int count;
		LifecycleManager records;
		synchronized (EarlySignalTrap.class) {
			if (!installed) {
				return OptionalInt.empty();
			}
			received.add(signal);
			count = received.size();
			records = manager;
		}
		if (count == 1) {
			logger.info("Lifecycle: received " + signal + " while the application starts; it shuts down as soon as "
					+ "Lifecycle has started");
			return OptionalInt.empty();
		}
		if (records == null) {
			// No manager yet, so no run marker either: nothing is left that could read as
			// a crash.
			logger.error("Lifecycle: second shutdown signal during start-up; forcing exit with code 128");
			return OptionalInt.of(ExitCodes.FORCED);
		}
		// The manager exists and its run marker is written: its report must say the exit
		// was forced.
		records.triggerShutdown(ShutdownReason.SIGNAL, TriggerSource.SIGNAL.label(), "during start-up");
		return OptionalInt.of(LifecycleHost.of(records).forceExit());
	}

	/** The manager exists: a forced exit during start-up is recorded in its report. */
	static synchronized void records(LifecycleManager records) {
		manager = records;
	}

	/** The manager is being destroyed: nothing more is recorded through it from here. */
	static synchronized void forget(LifecycleManager records) {
		if (manager == records) {
			manager = null;
		}
	}

	/**
	 * Hands over to the real trap, which listens already: the signals that arrived so
	 * far, in order; empty when the early trap was not installed.
	 */
	static synchronized List<String> takeOver() {
		List<String> signals = List.copyOf(received);
		if (installed) {
			SignalOwner.jvm().leave(listener);
		}
		installed = false;
		manager = null;
		received.clear();
		return signals;
	}

	/**
	 * Stops listening if no ShutdownExit took over: the JVM gets its own handlers back
	 * unless another application's trap listens.
	 */
	private static synchronized void release() {
		if (!installed) {
			return;
		}
		SignalOwner.jvm().leave(listener);
		received.clear();
		installed = false;
		manager = null;
	}

}
