package dev.lifecycle.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.component.Component;
import dev.lifecycle.core.component.ComponentEvents;
import dev.lifecycle.core.component.EngineThreads;
import dev.lifecycle.core.sequence.Listeners;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What follows from a component's outcome: the listeners hear of it first; a death starts
 * a shutdown (for an advisory component only its own failure signal does); and when every
 * standard component that does the work (not a supporting one) has completed finite work,
 * the application shuts down on its own if any component is declared finite, or says how
 * to make it do so if none is.
 */
final class ComponentOutcomes implements ComponentEvents {

	private static final Logger logger = LoggerFactory.getLogger(ComponentOutcomes.class);

	private final Listeners listeners;

	private final ComponentRegistry registry;

	private final EngineThreads threads;

	private final Triggers triggers;

	ComponentOutcomes(Listeners listeners, ComponentRegistry registry, EngineThreads threads, Triggers triggers) {
		this.triggers = triggers;
		this.listeners = listeners;
		this.registry = registry;
		this.threads = threads;
	}

	@Override
	public boolean isShutdownInitiated() {
		return this.triggers.isInitiated();
	}

	@Override
	public void settled(Component component, @Nullable ShutdownReason reason, String detail) {
		this.listeners.componentEnded(component.report());
		if (reason != null) {
			// An advisory component's stall or death is an observation; its own failure
			// signal, or its failed start, is a decision.
			boolean decides = component.tier() != Tier.ADVISORY || reason == ShutdownReason.FAILURE
					|| reason == ShutdownReason.START_FAILED;
			if (decides && !isShutdownInitiated()) {
				this.triggers.fire(reason, component.name(), detail);
			}
			return;
		}
		if (component.finishedWork() && doesWork(component) && !isShutdownInitiated()) {
			allWorkCompleted(component);
		}
	}

	private void allWorkCompleted(Component last) {
		boolean anyFinite = false;
		for (Component component : this.registry.components()) {
			if (!doesWork(component)) {
				continue;
			}
			if (!component.finishedWork()) {
				return;
			}
			anyFinite |= component.options().finite();
		}
		if (anyFinite) {
			this.triggers.fire(ShutdownReason.COMPLETED, last.name(), "all finite work completed");
		}
		else {
			logger.warn("Lifecycle: component '{}' completed its work and ended, and nothing else is running, "
					+ "but no component is declared finite, so the application keeps running; declare it finite "
					+ "(ComponentOptions.withFinite(true), @ManagedComponent(finite = true) or "
					+ "lifecycle.components.{}.finite=true) to shut down automatically", last.name(), last.name());
		}
	}

	/**
	 * Standard components count for automatic completion; supporting ones only serve
	 * them.
	 */
	private static boolean doesWork(Component component) {
		return component.tier() == Tier.STANDARD && !component.options().supporting();
	}

	@Override
	public void shutdownRequested(Component component, Duration delay) {
		if (delay.isNegative() || delay.isZero()) {
			this.triggers.fire(ShutdownReason.REQUESTED, component.name(), "");
			return;
		}
		logger.info("Lifecycle: component '{}' requested a shutdown in {}", component.name(), delay);
		this.threads.schedule(() -> this.triggers.fire(ShutdownReason.REQUESTED, component.name(), "after " + delay),
				TimeUnit.NANOSECONDS.convert(delay));
	}

}
