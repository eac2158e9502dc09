package dev.lifecycle.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A listener that keeps the values of the five Lifecycle series in memory, with the same
 * rules as the Micrometer binding (advisory components have no shutdown result; a ceiling
 * exit is not a completed shutdown), so engine tests can assert on them.
 */
final class InMemoryLifecycleMetrics implements LifecycleListener {

	private final Map<String, AtomicLong> initiated = new ConcurrentHashMap<>();

	private final Map<String, AtomicLong> results = new ConcurrentHashMap<>();

	private final List<ComponentShutdown> durations = new CopyOnWriteArrayList<>();

	private final Map<Boolean, AtomicLong> completed = new ConcurrentHashMap<>();

	private final Map<String, ComponentView> components = new ConcurrentHashMap<>();

	private final AtomicLong uncleanPreviousRuns = new AtomicLong();

	@Override
	public void onComponentRegistered(ComponentView component) {
		this.components.put(component.name(), component);
	}

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
		increment(this.initiated, trigger.component() + "/" + trigger.reason().label());
	}

	@Override
	public void onComponentEnded(ComponentReport report) {
		if (report.tier() == Tier.ADVISORY) {
			return;
		}
		increment(this.results, report.name() + "/" + report.outcome().label());
		this.durations.add(new ComponentShutdown(report.name(), report.outcome(), report.duration()));
	}

	@Override
	public void onShutdownCompleted(ShutdownReport report) {
		if (!report.ceilingFired()) {
			this.completed.computeIfAbsent(report.clean(), (k) -> new AtomicLong()).incrementAndGet();
		}
	}

	@Override
	public void onPreviousRun(PreviousRun previous) {
		if (previous.unclean()) {
			this.uncleanPreviousRuns.incrementAndGet();
		}
	}

	/**
	 * {@code lifecycle_shutdown_initiated_total} for one trigger component and reason.
	 */
	long initiated(String triggerComponent, ShutdownReason reason) {
		return value(this.initiated, triggerComponent + "/" + reason.label());
	}

	/** The sum of {@code lifecycle_shutdown_initiated_total} over all labels. */
	long initiatedTotal() {
		return this.initiated.values().stream().mapToLong(AtomicLong::get).sum();
	}

	/** {@code lifecycle_component_shutdown_result_total} for one component and result. */
	long results(String component, Outcome result) {
		return value(this.results, component + "/" + result.label());
	}

	/**
	 * Every observation of {@code lifecycle_component_shutdown_duration_seconds}, in
	 * order.
	 */
	List<ComponentShutdown> durations() {
		return new ArrayList<>(this.durations);
	}

	/** {@code lifecycle_shutdown_completed_total} for one value of {@code clean}. */
	long completed(boolean clean) {
		AtomicLong value = this.completed.get(clean);
		return (value != null) ? value.get() : 0;
	}

	/**
	 * {@code lifecycle_component_healthy} for one component: 1 healthy, 0 not, -1
	 * unknown.
	 */
	int healthy(String component) {
		ComponentView view = this.components.get(component);
		if (view == null) {
			return -1;
		}
		return view.healthy() ? 1 : 0;
	}

	/** How many times a previous process's unclean end was detected. */
	long uncleanPreviousRuns() {
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
	record ComponentShutdown(String component, Outcome result, Duration duration) {
	}

}
