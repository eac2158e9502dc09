package dev.lifecycle.core.sequence;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.StepReport;
import dev.lifecycle.core.Tier;
import dev.lifecycle.core.UnfinishedWork;
import dev.lifecycle.core.component.Component;
import org.jspecify.annotations.Nullable;

/**
 * Turns what a sequence saw into its {@link ShutdownReport}. The exit code is decided
 * here only, by the order {@link ExitCodes#severity(int)} gives: the ceiling wins, then
 * an unclean trigger, a death or a failed step, then work left for a later run (a
 * component cut by its budget or the ceiling, or work a component left unfinished), which
 * exits with the code the service chose. Whether the report is clean is decided apart
 * from the code, as {@link ShutdownReport#clean()} defines it.
 */
@Internal
public final class ShutdownVerdict {

	private ShutdownVerdict() {
	}

	/**
	 * @param cutByCeiling the components the ceiling settled, {@code null} when the
	 * ceiling did not fire
	 * @param incompleteExitCode the code of work left for a later run, which the service
	 * chose
	 */
	static ShutdownReport report(ShutdownTrigger trigger, List<Component> components,
			@Nullable Set<String> cutByCeiling, List<String> failedSteps, List<StepReport> steps, String diagnostics,
			long elapsedNanos, long failedRequests, int incompleteExitCode) {
		List<ComponentReport> reports = new ArrayList<>();
		boolean abnormal = false;
		boolean allCompleted = true;
		List<UnfinishedWork> unfinished = new ArrayList<>();
		boolean nothingCut = true;
		for (Component component : components) {
			Outcome outcome = component.outcome();
			if (component.tier() == Tier.ADVISORY) {
				if (outcome != null) {
					reports.add(component.report());
				}
				continue;
			}
			ComponentReport report = component.report();
			reports.add(report);
			nothingCut &= report.cut().isEmpty();
			abnormal |= component.isDead();
			allCompleted &= (outcome == Outcome.COMPLETED);
			for (String work : component.unfinishedWork()) {
				unfinished.add(new UnfinishedWork(component.name(), work));
			}
			// Observability serves no work of its own: its overrun leaves nothing for a
			// later run.
			if (outcome == Outcome.TIMEOUT && component.tier() != Tier.OBSERVABILITY
					&& component.unfinishedWork().isEmpty()) {
				boolean byCeiling = cutByCeiling != null && cutByCeiling.contains(component.name());
				unfinished.add(new UnfinishedWork(component.name(),
						byCeiling ? "cut by the global ceiling" : "cut at its budget"));
			}
		}
		boolean ceilingFired = cutByCeiling != null;
		int exitCode;
		boolean failed = !trigger.reason().isClean() || abnormal || !failedSteps.isEmpty();
		if (ceilingFired) {
			exitCode = ExitCodes.CEILING;
		}
		else if (failed) {
			exitCode = ExitCodes.FAILURE;
		}
		else if (!unfinished.isEmpty()) {
			exitCode = incompleteExitCode;
		}
		else {
			exitCode = ExitCodes.CLEAN;
		}
		// Decided apart from the code: a service may choose 0 for unfinished work.
		boolean clean = !ceilingFired && !failed && unfinished.isEmpty() && allCompleted && nothingCut;
		return new ShutdownReport(trigger, reports, clean, exitCode, ceilingFired, Duration.ofNanos(elapsedNanos),
				failedSteps, steps, diagnostics, failedRequests, unfinished);
	}

}
