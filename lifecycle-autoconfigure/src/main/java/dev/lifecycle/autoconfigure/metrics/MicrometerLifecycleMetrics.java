package dev.lifecycle.autoconfigure.metrics;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import dev.lifecycle.autoconfigure.component.LifecycleCoordinator;
import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.HealthStatus;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.PreviousRun;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.Tier;
import dev.lifecycle.core.TriggerSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.Ordered;

/**
 * The engine's metrics on Micrometer as exactly the five {@code lifecycle_*} series, each
 * tagged {@code service_name}. Cardinality is a cost paid per pod, so at idle a component
 * has only its health gauge and the initiated counters it could trigger; its duration and
 * result series are registered when a shutdown begins or the context starts closing,
 * still before Spring Boot closes the registries (a closed registry hands out no-op
 * meters). Never throws: a metrics failure is logged and the shutdown goes on. The
 * series: {@code docs/observability.md}.
 */
@Internal
public final class MicrometerLifecycleMetrics
		implements LifecycleListener, ApplicationListener<ContextClosedEvent>, Ordered {

	public static final String SHUTDOWN_INITIATED = "lifecycle.shutdown.initiated";

	static final String COMPONENT_SHUTDOWN_DURATION = "lifecycle.component.shutdown.duration";

	static final String COMPONENT_SHUTDOWN_RESULT = "lifecycle.component.shutdown.result";

	static final String SHUTDOWN_COMPLETED = "lifecycle.shutdown.completed";

	public static final String COMPONENT_HEALTHY = "lifecycle.component.healthy";

	/**
	 * Drains take from milliseconds to the ceiling; these buckets span that with few
	 * series.
	 */
	static final Duration[] DEFAULT_BUCKETS = { Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
			Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
			Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(120),
			Duration.ofSeconds(300) };

	private static final Log logger = LogFactory.getLog(MicrometerLifecycleMetrics.class);

	private final MeterRegistry registry;

	private final Tags serviceTags;

	private final boolean histogram;

	private final List<ComponentView> components = new CopyOnWriteArrayList<>();

	/**
	 * Whether every component's shutdown series are registered; guarded by this, so that
	 * the context's close, which closes the registries right after its listener returns,
	 * waits for a registration the shutdown's first instant began on another thread.
	 */
	private boolean shutdownMetersRegistered;

	private final Predicate<String> adopted;

	MicrometerLifecycleMetrics(MeterRegistry registry, String serviceName) {
		this(registry, serviceName, true);
	}

	MicrometerLifecycleMetrics(MeterRegistry registry, String serviceName, boolean histogram) {
		this(registry, serviceName, histogram, (name) -> false);
	}

	/**
	 * @param adopted whether a component is an adopted Spring bean: it cannot signal
	 * failure, ask for a shutdown, complete work or be monitored, so it gets no initiated
	 * counters at all
	 */
	MicrometerLifecycleMetrics(MeterRegistry registry, String serviceName, boolean histogram,
			Predicate<String> adopted) {
		this.adopted = adopted;
		this.registry = registry;
		this.serviceTags = Tags.of("service_name", serviceName);
		this.histogram = histogram;
		completedCounter(true);
		completedCounter(false);
		initiatedCounter(TriggerSource.SIGNAL.label(), ShutdownReason.SIGNAL.label());
		initiatedCounter(TriggerSource.CONTEXT_CLOSE.label(), ShutdownReason.SIGNAL.label());
		initiatedCounter(TriggerSource.PRESTOP.label(), ShutdownReason.PRESTOP.label());
	}

	/**
	 * First, so the counters are up to date before any other listener reacts to the same
	 * event.
	 */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	/**
	 * Binds the health gauge and the initiated counters this component could itself
	 * trigger.
	 */
	@Override
	public void onComponentRegistered(ComponentView component) {
		this.components.add(component);
		safely(() -> {
			Gauge.builder(COMPONENT_HEALTHY, component, (view) -> view.healthy() ? 1 : 0)
				.description("Whether the component is healthy (1) or not (0)")
				.tags(this.serviceTags)
				.tag("component", component.name())
				.strongReference(true)
				.register(this.registry);
			String name = component.name();
			if (this.adopted.test(name)) {
				return;
			}
			initiatedCounter(name, ShutdownReason.FAILURE.label());
			initiatedCounter(name, ShutdownReason.REQUESTED.label());
			if (component.tier() == Tier.ADVISORY) {
				return;
			}
			initiatedCounter(name, ShutdownReason.DIED.label());
			if (component.tier() == Tier.STANDARD) {
				initiatedCounter(name, ShutdownReason.COMPLETED.label());
				if (component.healthStatus() != HealthStatus.UNMONITORED) {
					initiatedCounter(name, ShutdownReason.STALLED.label());
				}
			}
		});
		synchronized (this) {
			if (this.shutdownMetersRegistered) {
				registerShutdownMeters(component);
			}
		}
	}

	/** The context starts closing: the registries close right after this listener. */
	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		registerShutdownMeters();
	}

	/** Registers, once, every component's duration and result series at zero. */
	void registerShutdownMeters() {
		synchronized (this) {
			if (!this.shutdownMetersRegistered) {
				this.shutdownMetersRegistered = true;
				this.components.forEach(this::registerShutdownMeters);
			}
		}
	}

	private void registerShutdownMeters(ComponentView component) {
		if (component.tier() == Tier.ADVISORY) {
			return;
		}
		safely(() -> {
			for (Outcome result : Outcome.values()) {
				if (result == Outcome.UNKNOWN) {
					// Only a report read back has it; no component ends with it.
					continue;
				}
				durationTimer(component.name(), result);
				resultCounter(component.name(), result);
			}
		});
	}

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
		registerShutdownMeters();
		safely(() -> initiatedCounter(trigger.component(), trigger.reason().label()).increment());
	}

	@Override
	public void onComponentEnded(ComponentReport report) {
		if (report.tier() == Tier.ADVISORY) {
			return;
		}
		safely(() -> {
			durationTimer(report.name(), report.outcome()).record(report.duration());
			resultCounter(report.name(), report.outcome()).increment();
		});
	}

	private Timer durationTimer(String component, Outcome result) {
		Timer.Builder builder = Timer.builder(COMPONENT_SHUTDOWN_DURATION)
			.description("Time from a component being told to stop to its end")
			.tags(this.serviceTags.and("component", component, "result", result.label()));
		if (this.histogram) {
			// Defaults only:
			// management.metrics.distribution.slo.lifecycle.component.shutdown.duration
			// wins.
			builder.serviceLevelObjectives(DEFAULT_BUCKETS);
		}
		return builder.register(this.registry);
	}

	private Counter resultCounter(String component, Outcome result) {
		return Counter.builder(COMPONENT_SHUTDOWN_RESULT)
			.description("Component shutdowns by result: completed, timeout or died")
			.tags(this.serviceTags.and("component", component, "result", result.label()))
			.register(this.registry);
	}

	/**
	 * A ceiling exit is not a completed shutdown: initiated minus completed must show it.
	 */
	@Override
	public void onShutdownCompleted(ShutdownReport report) {
		if (!report.ceilingFired()) {
			safely(() -> completedCounter(report.clean()).increment());
		}
	}

	@Override
	public void onPreviousRun(PreviousRun previous) {
		if (!previous.unclean()) {
			return;
		}
		safely(() -> initiatedCounter("previous-run", "unclean").increment());
	}

	private Counter initiatedCounter(String component, String reason) {
		return Counter.builder(SHUTDOWN_INITIATED)
			.description("Shutdowns started, by trigger; previous-run/unclean counts a previous process that "
					+ "ended without finishing its shutdown")
			.tags(this.serviceTags)
			.tag("trigger_component", component)
			.tag("trigger_reason", reason)
			.register(this.registry);
	}

	private Counter completedCounter(boolean clean) {
		return Counter.builder(SHUTDOWN_COMPLETED)
			.description("Shutdown sequences that ran to their end, by cleanliness")
			.tags(this.serviceTags)
			.tag("clean", Boolean.toString(clean))
			.register(this.registry);
	}

	private static void safely(Runnable action) {
		try {
			action.run();
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: could not record a metric", ex);
		}
	}

}
