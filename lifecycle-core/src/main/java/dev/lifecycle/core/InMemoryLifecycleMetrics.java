package dev.lifecycle.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link LifecycleMetrics} that keeps every value in memory, for tests and for applications that
 * want to read the figures without a metrics library. Keys are the label values joined the way the
 * Prometheus series would carry them; all methods are thread-safe.
 */
public final class InMemoryLifecycleMetrics implements LifecycleMetrics {

	private final Map<String, AtomicLong> initiated = new ConcurrentHashMap<>();

	private final Map<String, AtomicLong> results = new ConcurrentHashMap<>();

	private final List<ComponentShutdown> durations = new CopyOnWriteArrayList<>();

	private final Map<Boolean, AtomicLong> completed = new ConcurrentHashMap<>();

	private final Map<String, ComponentView> components = new ConcurrentHashMap<>();

	private final AtomicLong uncleanPreviousRuns = new AtomicLong();

	@Override
	public void componentRegistered(ComponentView component) {
		this.components.put(component.name(), component);
	}

	@Override
	public void shutdownInitiated(ShutdownTrigger trigger) {
		increment(this.initiated, trigger.component() + "/" + trigger.reason().label());
	}

	@Override
	public void componentEnded(String component, Outcome result, Duration duration) {
		increment(this.results, component + "/" + result.label());
		this.durations.add(new ComponentShutdown(component, result, duration));
	}

	@Override
	public void shutdownCompleted(boolean clean) {
		this.completed.computeIfAbsent(clean, (k) -> new AtomicLong()).incrementAndGet();
	}

	@Override
	public void uncleanPreviousRun() {
		this.uncleanPreviousRuns.incrementAndGet();
	}

	/** {@code lifecycle_shutdown_initiated_total} for one trigger component and reason. */
	public long initiated(String triggerComponent, ShutdownReason reason) {
		return value(this.initiated, triggerComponent + "/" + reason.label());
	}

	/** The sum of {@code lifecycle_shutdown_initiated_total} over all labels. */
	public long initiatedTotal() {
		return this.initiated.values().stream().mapToLong(AtomicLong::get).sum();
	}

	/** {@code lifecycle_component_shutdown_result_total} for one component and result. */
	public long results(String component, Outcome result) {
		return value(this.results, component + "/" + result.label());
	}

	/** Every observation of {@code lifecycle_component_shutdown_duration_seconds}, in order. */
	public List<ComponentShutdown> durations() {
		return new ArrayList<>(this.durations);
	}

	/** {@code lifecycle_shutdown_completed_total} for one value of {@code clean}. */
	public long completed(boolean clean) {
		AtomicLong value = this.completed.get(clean);
		return (value != null) ? value.get() : 0;
	}

	/** {@code lifecycle_component_healthy} for one component: 1 healthy, 0 not, -1 unknown. */
	public int healthy(String component) {
		ComponentView view = this.components.get(component);
		if (view == null) {
			return -1;
		}
		return view.healthy() ? 1 : 0;
	}

	/** How many times a previous process's unclean end was detected. */
	public long uncleanPreviousRuns() {
		return this.uncleanPreviousRuns.get();
	}

	private static void increment(Map<String, AtomicLong> map, String key) {
		map.computeIfAbsent(key, (k) -> new AtomicLong()).incrementAndGet();
	}

	private static long value(Map<String, AtomicLong> map, String key) {
		AtomicLong value = map.get(key);
		return (value != null) ? value.get() : 0;
	}

	/**
	 * One recorded component shutdown.
	 *
	 * @param component the component
	 * @param result its outcome
	 * @param duration how long it took
	 */
	public record ComponentShutdown(String component, Outcome result, Duration duration) {
	}

}
