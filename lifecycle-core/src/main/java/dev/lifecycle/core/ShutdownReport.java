package dev.lifecycle.core;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The result of one shutdown sequence, produced exactly once when it ends (normally or
 * when the global ceiling fires).
 *
 * @param trigger the trigger that started it
 * @param components every standard and observability component, and each advisory
 * component that ended, in registration order
 * @param clean whether the shutdown was clean, defined here once (and in the manual's
 * guarantees, docs/design.md, "Clean and failed steps"): the trigger's reason is clean
 * ({@link ShutdownReason#isClean()}), the ceiling did not fire, no step failed, every
 * component the sequence waited for (every tier but advisory) ended completed, none of
 * them cut a client's call or request short ({@link ComponentReport#cut()}) and no work
 * was left unfinished. Failed requests and advisory components do not count. A clean
 * report exits 0; one that is not clean may exit 0 too
 * @param exitCode the process exit code, one of {@link ExitCodes#declared() Lifecycle's
 * own} (with the code the service chose for incomplete work)
 * @param ceilingFired whether the global ceiling cut the sequence short
 * @param elapsed from initiation to the end of the sequence
 * @param failedSteps each step that ended failed or timed out, named as in {@code steps}
 * and in the order they ended, e.g. {@code "shutdown handler 'backup'"}: a shutdown
 * handler, closing step or last step that threw or outlived its timeout, a final action
 * that threw, and any other step a throwable or a throwing listener ended; any makes the
 * report not clean with at least exit code {@link ExitCodes#FAILURE}. A step the ceiling
 * cut short is in neither list
 * @param steps every step that finished, in order (a step cut by the ceiling is missing)
 * @param diagnostics each component whose graceful budget ran out and, when the ceiling
 * fired, everything still running, each with its threads' stacks; empty when neither
 * happened
 * @param failedRequests requests answered with a server error (5xx) or failed by the
 * server after the trigger, as told by {@link LifecycleHost#recordFailedRequest()};
 * counted, not judged: they do not change {@code clean} or the exit code
 * @param unfinishedWork work left for a later run: what a component said it left
 * unfinished, and each component its budget or the ceiling cut (work
 * {@code "cut at its budget"} or {@code "cut by the global ceiling"}); any makes the
 * report not clean with the service's code for incomplete work (by default
 * {@link ExitCodes#INCOMPLETE}) unless a worse code applies. What a stop cancelled of its
 * clients' calls and requests is each component's {@link ComponentReport#cut()}
 */
public record ShutdownReport(ShutdownTrigger trigger, List<ComponentReport> components, boolean clean, int exitCode,
		boolean ceilingFired, Duration elapsed, List<String> failedSteps, List<StepReport> steps, String diagnostics,
		long failedRequests, List<UnfinishedWork> unfinishedWork) {

	/** A report of a shutdown that left no work unfinished. */
	public ShutdownReport(ShutdownTrigger trigger, List<ComponentReport> components, boolean clean, int exitCode,
			boolean ceilingFired, Duration elapsed, List<String> failedSteps, List<StepReport> steps,
			String diagnostics, long failedRequests) {
		this(trigger, components, clean, exitCode, ceilingFired, elapsed, failedSteps, steps, diagnostics,
				failedRequests, List.of());
	}

	/** A report of a shutdown during which no request failed. */
	public ShutdownReport(ShutdownTrigger trigger, List<ComponentReport> components, boolean clean, int exitCode,
			boolean ceilingFired, Duration elapsed, List<String> failedSteps, List<StepReport> steps,
			String diagnostics) {
		this(trigger, components, clean, exitCode, ceilingFired, elapsed, failedSteps, steps, diagnostics, 0);
	}

	/** Copies the component list so the report cannot change after it is published. */
	public ShutdownReport {
		components = List.copyOf(components);
		failedSteps = List.copyOf(failedSteps);
		unfinishedWork = List.copyOf(unfinishedWork);
		steps = List.copyOf(steps);
	}

	/** The report entry for one component, if the report has one. */
	public Optional<ComponentReport> component(String name) {
		return this.components.stream().filter((c) -> c.name().equals(name)).findFirst();
	}

}
