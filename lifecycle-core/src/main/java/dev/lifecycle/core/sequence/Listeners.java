package dev.lifecycle.core.sequence;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.PreviousRun;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.StepReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way out of the engine: every event goes to the listeners in the order they were
 * added; a listener that throws is logged and the others still hear of it.
 */
@Internal
public final class Listeners {

	private static final Logger logger = LoggerFactory.getLogger(Listeners.class);

	private final List<LifecycleListener> listeners;

	/** Open once every listener has heard that the shutdown began. */
	private final CountDownLatch shutdownHeard = new CountDownLatch(1);

	public Listeners(List<LifecycleListener> initial) {
		this.listeners = new CopyOnWriteArrayList<>(initial);
	}

	public void add(LifecycleListener listener) {
		this.listeners.add(listener);
	}

	/**
	 * Adds a listener that first hears of the components registered before it, as if it
	 * had been there.
	 */
	public void addLate(LifecycleListener listener, List<? extends ComponentView> registered) {
		for (ComponentView component : registered) {
			try {
				listener.onComponentRegistered(component);
			}
			catch (RuntimeException ex) {
				logger.error("Lifecycle: listener {} failed on component registered", listener, ex);
			}
		}
		this.listeners.add(listener);
	}

	public void componentRegistered(ComponentView component) {
		each("component registered", (listener) -> listener.onComponentRegistered(component));
	}

	public void previousRun(PreviousRun previous) {
		each("previous run", (listener) -> listener.onPreviousRun(previous));
	}

	void shutdownInitiated(ShutdownTrigger trigger) {
		try {
			each("shutdown initiated", (listener) -> listener.onShutdownInitiated(trigger));
		}
		finally {
			this.shutdownHeard.countDown();
		}
	}

	/**
	 * Waits, at most the given time, until every listener has heard that the shutdown
	 * began: the sequence tells them on its own thread, and an event that ends the
	 * shutdown at once (a second signal) must not reach them before its start.
	 * @param patience the longest wait
	 */
	public void awaitShutdownHeard(Duration patience) {
		try {
			this.shutdownHeard.await(patience.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	void stepStarted(String step) {
		each("step started", (listener) -> listener.onStepStarted(step));
	}

	void componentStopping(ComponentView component) {
		each("component stopping", (listener) -> listener.onComponentStopping(component));
	}

	public void componentEnded(ComponentReport report) {
		each("component ended", (listener) -> listener.onComponentEnded(report));
	}

	void stepCompleted(StepReport step) {
		each("step completed", (listener) -> listener.onStepCompleted(step));
	}

	public void shutdownCompleted(ShutdownReport report) {
		each("shutdown completed", (listener) -> listener.onShutdownCompleted(report));
	}

	public void forcedExit(int exitCode) {
		each("forced exit", (listener) -> listener.onForcedExit(exitCode));
	}

	public void halted(int exitCode, String heldBy) {
		each("halt", (listener) -> listener.onHalted(exitCode, heldBy));
	}

	private void each(String event, Consumer<LifecycleListener> call) {
		for (LifecycleListener listener : this.listeners) {
			try {
				call.accept(listener);
			}
			catch (RuntimeException ex) {
				logger.error("Lifecycle: listener {} failed on {}", listener, event, ex);
			}
		}
	}

}
