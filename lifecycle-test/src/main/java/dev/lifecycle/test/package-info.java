/**
 * Test support for applications using Lifecycle; add {@code dev.lifecycle:lifecycle-test}
 * with test scope. On the test classpath it gives every context of Spring's TestContext
 * framework safe defaults (no signal trap, no JVM exit, no pre-stop file, no run marker,
 * no drain delay, no ceiling halt), {@link dev.lifecycle.test.LifecycleTestSupport}
 * triggers a deterministic shutdown and awaits its report,
 * {@link dev.lifecycle.test.LifecycleAssertions} checks a report with AssertJ, and
 * {@link dev.lifecycle.test.ShutdownReports} reads the report files a process left.
 * Nothing here is null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.lifecycle.test;

import org.jspecify.annotations.NullMarked;
