package dev.lifecycle.core.component;

import java.util.Map;
import java.util.Set;

import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.PassiveComponent;

/**
 * What the component runs: nothing of its own (code holding the handle), an active loop,
 * passive start and stop callbacks, or a critical executor.
 */
@Internal
public interface ComponentWork {

	/** Code that holds the handle and ends through its process scope. */
	ComponentWork NONE = new ComponentWork() {
	};

	default void start(Component component) throws Exception {
	}

	default boolean hasStopWork() {
		return false;
	}

	default void stop(Component component) throws Exception {
	}

	default Set<Thread> threads(boolean stopRequested) {
		return Set.of();
	}

	/** What a thread of {@link #threads(boolean)} does for the component. */
	default String threadRole() {
		return "runs its work";
	}

	/** Why no thread is known to be at work, for a component of this kind. */
	default String withoutThreads(boolean stopRequested) {
		return "its process scope is not open and it holds no critical section open, so no thread of it is "
				+ "known to the engine";
	}

	default Map<String, Object> details() {
		return Map.of();
	}

	static ComponentWork active(ActiveComponent active, EngineThreads threads) {
		return new ComponentWork() {
			@Override
			public void start(Component component) {
				threads.newThread("lifecycle-" + component.name(), () -> component.runActive(active)).start();
			}

			@Override
			public String withoutThreads(boolean stopRequested) {
				return "its loop is not running and it holds no critical section open";
			}
		};
	}

	static ComponentWork passive(PassiveComponent passive) {
		return new ComponentWork() {
			@Override
			public void start(Component component) throws Exception {
				passive.start(component.handle());
			}

			@Override
			public boolean hasStopWork() {
				return true;
			}

			@Override
			public void stop(Component component) throws Exception {
				passive.stop(component.handle());
			}

			@Override
			public Set<Thread> threads(boolean stopRequested) {
				// Told to stop or not, its work running when the ceiling fires is what
				// was cut.
				return passive.threads();
			}

			@Override
			public String withoutThreads(boolean stopRequested) {
				return (stopRequested ? "its stop callback is not running" : "it has not been told to stop yet")
						+ ", it names no thread of its own at work and it holds no critical section open";
			}
		};
	}

	static ComponentWork executor(CriticalExecutor executor) {
		return new ComponentWork() {
			@Override
			public boolean hasStopWork() {
				return true;
			}

			@Override
			public void stop(Component component) throws InterruptedException {
				executor.drain();
			}

			@Override
			public Set<Thread> threads(boolean stopRequested) {
				return stopRequested ? executor.workers() : Set.of();
			}

			@Override
			public String threadRole() {
				return "runs a task of its executor";
			}

			@Override
			public String withoutThreads(boolean stopRequested) {
				return stopRequested ? "no task of its executor is running"
						: "it has not been told to stop yet, so its executor's tasks are not listed";
			}

			@Override
			public Map<String, Object> details() {
				return Map.of("queueDepth", executor.queueDepth(), "activeCount", executor.activeCount());
			}
		};
	}

}
