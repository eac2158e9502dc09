package dev.lifecycle.core;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The result of one shutdown sequence, produced exactly once when it ends (normally or when the
 * global ceiling fires).
 *
 * @param trigger the trigger that started it
 * @param components every standard and observability component, and each advisory component that
 * ended, in registration order
 * @param clean {@code true} when the trigger was clean, the ceiling did not fire and every
 * component the sequence waited for completed
 * @param exitCode the process exit code: {@link ExitCodes#CLEAN}, {@link ExitCodes#FAILURE} or
 * {@link ExitCodes#CEILING}
 * @param ceilingFired whether the global ceiling cut the sequence short
 * @param elapsed from initiation to the end of the sequence
 * @param failedSteps shutdown handlers and closing steps that threw or timed out, e.g.
 * {@code "shutdown handler 'backup'"}; any makes the report not clean with exit code
 * {@link ExitCodes#FAILURE}
 * @param steps every step that finished, in order (a step cut by the ceiling is missing)
 * @param diagnostics when the ceiling fired, what was still running with each thread's stack;
 * empty otherwise
 */
public record ShutdownReport(ShutdownTrigger trigger, List<ComponentReport> components, boolean clean, int exitCode,
		boolean ceilingFired, Duration elapsed, List<String> failedSteps, List<StepReport> steps,
		String diagnostics) {

	/** Copies the component list so the report cannot change after it is published. */
	public ShutdownReport {
		components = List.copyOf(components);
		failedSteps = List.copyOf(failedSteps);
		steps = List.copyOf(steps);
	}

	/** The report entry for one component, if the report has one. */
	public Optional<ComponentReport> component(String name) {
		return this.components.stream().filter((c) -> c.name().equals(name)).findFirst();
	}

}
