package dev.lifecycle.autoconfigure.observation;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.StepReport;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * A shutdown as Micrometer Observations, so that a tracing backend shows where its time
 * went as one trace: the sequence ({@value #SHUTDOWN}) is the root, each step
 * ({@value #STEP}) its child, each component told to stop ({@value #COMPONENT}) a child
 * of its step. Every key is low cardinality. The meters an observation handler would
 * derive are filtered out ({@link #isObservationMeter(String)}), since the five metric
 * series say the same. Nothing opens a scope, so no thread-local state leaks into the
 * application.
 */
final class ShutdownObservations implements LifecycleListener {

	static final String SHUTDOWN = "lifecycle.shutdown";

	static final String STEP = "lifecycle.shutdown.step";

	static final String COMPONENT = "lifecycle.shutdown.component";

	/** The meters Micrometer's default meter handler would make of these observations. */
	private static final Set<String> OBSERVATION_METERS = Set.of(SHUTDOWN, SHUTDOWN + ".active", STEP, STEP + ".active",
			COMPONENT, COMPONENT + ".active");

	private final ObservationRegistry registry;

	private final Map<String, Observation> components = new ConcurrentHashMap<>();

	private volatile @Nullable Observation shutdown;

	private volatile @Nullable Observation step;

	ShutdownObservations(ObservationRegistry registry) {
		this.registry = registry;
	}

	/**
	 * Whether a meter of this name would only repeat what an observation of a shutdown
	 * says.
	 */
	static boolean isObservationMeter(String name) {
		return OBSERVATION_METERS.contains(name);
	}

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
		this.shutdown = Observation.createNotStarted(SHUTDOWN, this.registry)
			.contextualName("lifecycle shutdown")
			.lowCardinalityKeyValue("lifecycle.trigger.reason", trigger.reason().label())
			.lowCardinalityKeyValue("lifecycle.trigger.component", trigger.component())
			.start();
	}

	@Override
	public void onStepStarted(String name) {
		this.step = Observation.createNotStarted(STEP, this.registry)
			.contextualName(name)
			.parentObservation(this.shutdown)
			.lowCardinalityKeyValue("lifecycle.step", name)
			.start();
	}

	@Override
	public void onComponentStopping(ComponentView component) {
		Observation parent = (this.step != null) ? this.step : this.shutdown;
		Observation observation = Observation.createNotStarted(COMPONENT, this.registry)
			.contextualName("stop " + component.name())
			.parentObservation(parent)
			.lowCardinalityKeyValue("lifecycle.component", component.name())
			.lowCardinalityKeyValue("lifecycle.phase", Integer.toString(component.phase()))
			.lowCardinalityKeyValue("lifecycle.tier", component.tier().name().toLowerCase(Locale.ROOT))
			.start();
		this.components.put(component.name(), observation);
	}

	@Override
	public void onComponentEnded(ComponentReport report) {
		Observation observation = this.components.remove(report.name());
		if (observation != null) {
			observation.lowCardinalityKeyValue("lifecycle.result", report.outcome().label()).stop();
		}
	}

	@Override
	public void onStepCompleted(StepReport completed) {
		Observation current = this.step;
		if (current != null) {
			this.step = null;
			current.lowCardinalityKeyValue("lifecycle.result", completed.result().label()).stop();
		}
	}

	/**
	 * Also closes what the global ceiling cut short, so the trace ends where the process
	 * did.
	 */
	@Override
	public void onShutdownCompleted(ShutdownReport report) {
		this.components.values()
			.forEach((observation) -> observation.lowCardinalityKeyValue("lifecycle.result", "cut").stop());
		this.components.clear();
		Observation current = this.step;
		if (current != null) {
			this.step = null;
			current.lowCardinalityKeyValue("lifecycle.result", "cut").stop();
		}
		Observation root = this.shutdown;
		if (root == null) {
			return;
		}
		root.lowCardinalityKeyValue("lifecycle.clean", Boolean.toString(report.clean()))
			.lowCardinalityKeyValue("lifecycle.exit.code", Integer.toString(report.exitCode()))
			.lowCardinalityKeyValue("lifecycle.ceiling.fired", Boolean.toString(report.ceilingFired()));
		if (!report.clean()) {
			root.error(new IllegalStateException(report.ceilingFired() ? "global shutdown ceiling fired"
					: "shutdown not clean: exit code " + report.exitCode()));
		}
		root.stop();
	}

}
