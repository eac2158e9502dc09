package dev.lifecycle.test;

import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.Cut;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.UnfinishedWork;
import org.assertj.core.api.AbstractObjectAssert;
import org.assertj.core.api.ListAssert;
import org.assertj.core.api.ObjectAssert;
import org.jspecify.annotations.Nullable;

/**
 * AssertJ assertions for a {@link ShutdownReport}, the engine's result of one shutdown.
 * Get one from {@link LifecycleAssertions#assertThat(ShutdownReport)}; each failure names
 * what the report says instead. What each field means: {@code docs/testing.md}.
 */
public class ShutdownReportAssert extends AbstractObjectAssert<ShutdownReportAssert, ShutdownReport> {

	/**
	 * Assertions for the given report.
	 * @param actual the report, {@code null} to fail every assertion
	 */
	public ShutdownReportAssert(@Nullable ShutdownReport actual) {
		super(actual, ShutdownReportAssert.class);
	}

	/**
	 * Verifies that the shutdown was clean ({@link ShutdownReport#clean()}).
	 * @return this
	 */
	public ShutdownReportAssert isClean() {
		if (!report().clean()) {
			failWithMessage("Expected a clean shutdown but it was not: %s", summary());
		}
		return this;
	}

	/**
	 * Verifies that the shutdown was not clean.
	 * @return this
	 */
	public ShutdownReportAssert isNotClean() {
		if (report().clean()) {
			failWithMessage("Expected a shutdown that was not clean but it was: %s", summary());
		}
		return this;
	}

	/**
	 * Verifies the process's exit code.
	 * @param exitCode the expected code, e.g. {@code ExitCodes.INCOMPLETE}
	 * @return this
	 */
	public ShutdownReportAssert hasExitCode(int exitCode) {
		if (report().exitCode() != exitCode) {
			failWithMessage("Expected exit code %s but was %s: %s", exitCode, report().exitCode(), summary());
		}
		return this;
	}

	/**
	 * Verifies the reason of the trigger that started the shutdown.
	 * @param reason the expected reason
	 * @return this
	 */
	public ShutdownReportAssert hasReason(ShutdownReason reason) {
		if (report().trigger().reason() != reason) {
			failWithMessage("Expected a shutdown for reason %s but it was %s", reason, report().trigger());
		}
		return this;
	}

	/**
	 * Verifies the trigger's reason and component (who or what triggered it).
	 * @param reason the expected reason
	 * @param component the expected component, e.g. {@code signal} or a bean's name
	 * @return this
	 */
	public ShutdownReportAssert hasTrigger(ShutdownReason reason, String component) {
		hasReason(reason);
		if (!component.equals(report().trigger().component())) {
			failWithMessage("Expected a shutdown triggered by '%s' but it was %s", component, report().trigger());
		}
		return this;
	}

	/**
	 * Verifies that the global ceiling cut the sequence short.
	 * @return this
	 */
	public ShutdownReportAssert isCutByTheCeiling() {
		if (!report().ceilingFired()) {
			failWithMessage("Expected the global ceiling to have fired but it did not: %s", summary());
		}
		return this;
	}

	/**
	 * Verifies that the given step is among the failed steps.
	 * @param step the step's name as the report gives it, e.g.
	 * {@code "shutdown handler 'backup'"}
	 * @return this
	 */
	public ShutdownReportAssert hasFailedStep(String step) {
		if (!report().failedSteps().contains(step)) {
			failWithMessage("Expected failed step '%s' but the failed steps were %s", step, report().failedSteps());
		}
		return this;
	}

	/**
	 * Verifies that no step failed.
	 * @return this
	 */
	public ShutdownReportAssert hasNoFailedSteps() {
		if (!report().failedSteps().isEmpty()) {
			failWithMessage("Expected no failed steps but there were %s", report().failedSteps());
		}
		return this;
	}

	/**
	 * Verifies that the report names this work left unfinished (it may name more).
	 * @param component the component that left it
	 * @param work what it left, as the component or the engine named it, e.g.
	 * {@code "cut at its budget"}
	 * @return this
	 */
	public ShutdownReportAssert hasUnfinishedWork(String component, String work) {
		if (!report().unfinishedWork().contains(new UnfinishedWork(component, work))) {
			failWithMessage("Expected unfinished work '%s' of component '%s' but the report's was %s", work, component,
					report().unfinishedWork());
		}
		return this;
	}

	/**
	 * Verifies that no work was left unfinished.
	 * @return this
	 */
	public ShutdownReportAssert hasNoUnfinishedWork() {
		if (!report().unfinishedWork().isEmpty()) {
			failWithMessage("Expected no unfinished work but there was %s", report().unfinishedWork());
		}
		return this;
	}

	/**
	 * Verifies how many requests failed after the trigger.
	 * @param count the expected count
	 * @return this
	 */
	public ShutdownReportAssert hasFailedRequests(long count) {
		if (report().failedRequests() != count) {
			failWithMessage("Expected %s failed requests but there were %s", count, report().failedRequests());
		}
		return this;
	}

	/**
	 * Verifies that the report has an entry for each of the given components.
	 * @param names the components' names
	 * @return this
	 */
	public ShutdownReportAssert hasComponents(String... names) {
		for (String name : names) {
			component(name);
		}
		return this;
	}

	/**
	 * Assertions on how a component ended; fails if the report has no such component.
	 * @param name the component's name
	 * @return assertions on its {@link Outcome}
	 */
	public ObjectAssert<Outcome> componentOutcome(String name) {
		return new ObjectAssert<>(component(name).outcome()).as("outcome of component '%s'", name);
	}

	/**
	 * Assertions on the work a component's stop cut short; fails if the report has no
	 * such component.
	 * @param name the component's name
	 * @return assertions on its {@link ComponentReport#cut()}
	 */
	public ListAssert<Cut> componentCut(String name) {
		return new ListAssert<>(component(name).cut()).as("work cut by component '%s'", name);
	}

	private ComponentReport component(String name) {
		return report().component(name)
			.orElseThrow(() -> failure("Expected component '%s' in the report but it has only %s", name,
					report().components().stream().map(ComponentReport::name).toList()));
	}

	private ShutdownReport report() {
		isNotNull();
		return this.actual;
	}

	private String summary() {
		ShutdownReport report = this.actual;
		return "exit code " + report.exitCode() + ", trigger " + report.trigger() + ", ceiling fired "
				+ report.ceilingFired() + ", failed steps " + report.failedSteps() + ", unfinished work "
				+ report.unfinishedWork() + ", components " + report.components();
	}

}
