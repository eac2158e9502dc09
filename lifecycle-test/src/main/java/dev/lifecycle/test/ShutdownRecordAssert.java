package dev.lifecycle.test;

import java.util.Objects;

import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.Cut;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.core.UnfinishedWork;
import org.assertj.core.api.AbstractObjectAssert;
import org.assertj.core.api.ListAssert;
import org.assertj.core.api.ObjectAssert;
import org.jspecify.annotations.Nullable;

/**
 * AssertJ assertions for a {@link ShutdownRecord}, a shutdown report as the engine writes
 * it next to its run marker and as the next start reads it back
 * ({@code PreviousRun#report()}). Get one from
 * {@link LifecycleAssertions#assertThat(ShutdownRecord)}, and the newest file's record
 * from {@link ShutdownReports#newest(java.nio.file.Path)}. A field the file does not hold
 * (a shutdown that did not finish) fails every assertion on it.
 */
public class ShutdownRecordAssert extends AbstractObjectAssert<ShutdownRecordAssert, ShutdownRecord> {

	/**
	 * Assertions for the given record.
	 * @param actual the record, {@code null} to fail every assertion
	 */
	public ShutdownRecordAssert(@Nullable ShutdownRecord actual) {
		super(actual, ShutdownRecordAssert.class);
	}

	/**
	 * Verifies that the report says the shutdown was clean.
	 * @return this
	 */
	public ShutdownRecordAssert isClean() {
		if (!Boolean.TRUE.equals(record().clean())) {
			failWithMessage("Expected a report that says clean but it says clean=%s: %s", record().clean(), summary());
		}
		return this;
	}

	/**
	 * Verifies that the report says the shutdown was not clean (a report without the
	 * field, of a shutdown that did not finish, fails).
	 * @return this
	 */
	public ShutdownRecordAssert isNotClean() {
		if (!Boolean.FALSE.equals(record().clean())) {
			failWithMessage("Expected a report that says not clean but it says clean=%s: %s", record().clean(),
					summary());
		}
		return this;
	}

	/**
	 * Verifies the exit code the report gives.
	 * @param exitCode the expected code, e.g. {@code ExitCodes.INCOMPLETE}
	 * @return this
	 */
	public ShutdownRecordAssert hasExitCode(int exitCode) {
		if (!Objects.equals(record().exitCode(), exitCode)) {
			failWithMessage("Expected exit code %s but the report says %s: %s", exitCode, record().exitCode(),
					summary());
		}
		return this;
	}

	/**
	 * Verifies the reason of the trigger that started the shutdown.
	 * @param reason the expected reason
	 * @return this
	 */
	public ShutdownRecordAssert hasReason(ShutdownReason reason) {
		if (record().trigger().reason() != reason) {
			failWithMessage("Expected a shutdown for reason %s but it was %s", reason, record().trigger());
		}
		return this;
	}

	/**
	 * Verifies the trigger's reason and component (who or what triggered it).
	 * @param reason the expected reason
	 * @param component the expected component, e.g. {@code signal} or a bean's name
	 * @return this
	 */
	public ShutdownRecordAssert hasTrigger(ShutdownReason reason, String component) {
		hasReason(reason);
		if (!component.equals(record().trigger().component())) {
			failWithMessage("Expected a shutdown triggered by '%s' but it was %s", component, record().trigger());
		}
		return this;
	}

	/**
	 * Verifies how far the shutdown got when the report was last written.
	 * @param state the expected state, e.g. {@link ShutdownRecord.State#CEILING}
	 * @return this
	 */
	public ShutdownRecordAssert hasState(ShutdownRecord.State state) {
		if (record().state() != state) {
			failWithMessage("Expected state %s but the report says %s: %s", state, record().state(), summary());
		}
		return this;
	}

	/**
	 * Verifies that the given step is among the failed steps.
	 * @param step the step's name as the report gives it, e.g.
	 * {@code "shutdown handler 'backup'"}
	 * @return this
	 */
	public ShutdownRecordAssert hasFailedStep(String step) {
		if (!record().failedSteps().contains(step)) {
			failWithMessage("Expected failed step '%s' but the failed steps were %s", step, record().failedSteps());
		}
		return this;
	}

	/**
	 * Verifies that no step failed.
	 * @return this
	 */
	public ShutdownRecordAssert hasNoFailedSteps() {
		if (!record().failedSteps().isEmpty()) {
			failWithMessage("Expected no failed steps but there were %s", record().failedSteps());
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
	public ShutdownRecordAssert hasUnfinishedWork(String component, String work) {
		if (!record().unfinishedWork().contains(new UnfinishedWork(component, work))) {
			failWithMessage("Expected unfinished work '%s' of component '%s' but the report's was %s", work, component,
					record().unfinishedWork());
		}
		return this;
	}

	/**
	 * Verifies that no work was left unfinished.
	 * @return this
	 */
	public ShutdownRecordAssert hasNoUnfinishedWork() {
		if (!record().unfinishedWork().isEmpty()) {
			failWithMessage("Expected no unfinished work but there was %s", record().unfinishedWork());
		}
		return this;
	}

	/**
	 * Verifies how many requests failed after the trigger.
	 * @param count the expected count
	 * @return this
	 */
	public ShutdownRecordAssert hasFailedRequests(long count) {
		if (!Objects.equals(record().failedRequests(), count)) {
			failWithMessage("Expected %s failed requests but the report says %s", count, record().failedRequests());
		}
		return this;
	}

	/**
	 * Verifies that the report has an entry for each of the given components.
	 * @param names the components' names
	 * @return this
	 */
	public ShutdownRecordAssert hasComponents(String... names) {
		for (String name : names) {
			component(name);
		}
		return this;
	}

	/**
	 * Assertions on how a component ended, {@link Outcome#UNKNOWN} while it had not;
	 * fails if the report has no such component.
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
		return record().component(name)
			.orElseThrow(() -> failure("Expected component '%s' in the report but it has only %s%s", name,
					record().components().stream().map(ComponentReport::name).toList(),
					record().componentsTruncated() ? " (the list was truncated)" : ""));
	}

	private ShutdownRecord record() {
		isNotNull();
		return this.actual;
	}

	private String summary() {
		ShutdownRecord record = this.actual;
		return "state " + record.state() + ", exit code " + record.exitCode() + ", trigger " + record.trigger()
				+ ", failed steps " + record.failedSteps() + ", unfinished work " + record.unfinishedWork()
				+ ", components " + record.components();
	}

}
