package dev.lifecycle.test;

import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.core.ShutdownReport;
import org.jspecify.annotations.Nullable;

/**
 * Entry point for AssertJ assertions on Lifecycle's shutdown reports: the engine's
 * {@link ShutdownReport} (from {@link LifecycleTestSupport#awaitReport}) and the
 * {@link ShutdownRecord} of a report file (from {@link ShutdownReports}). Import it
 * statically next to AssertJ's {@code Assertions.assertThat}; the overloads do not clash.
 * Needs {@code org.assertj:assertj-core} on the test class path, which
 * {@code spring-boot-starter-test} brings. Example: {@code docs/testing.md}.
 */
public final class LifecycleAssertions {

	private LifecycleAssertions() {
	}

	/**
	 * Assertions for a shutdown's report.
	 * @param actual the report
	 * @return its assertions
	 */
	public static ShutdownReportAssert assertThat(@Nullable ShutdownReport actual) {
		return new ShutdownReportAssert(actual);
	}

	/**
	 * Assertions for a shutdown report as its file holds it.
	 * @param actual the record
	 * @return its assertions
	 */
	public static ShutdownRecordAssert assertThat(@Nullable ShutdownRecord actual) {
		return new ShutdownRecordAssert(actual);
	}

}
