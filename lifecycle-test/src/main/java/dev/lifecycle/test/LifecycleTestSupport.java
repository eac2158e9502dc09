package dev.lifecycle.test;

import java.time.Duration;
import java.util.Optional;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.TriggerSource;
import dev.lifecycle.spring.LifecycleExit;

import org.springframework.context.ApplicationContext;

/**
 * Drives a shutdown from a {@code @SpringBootTest} without signals, as a first SIGTERM
 * would, and waits for its report. The sequence runs exactly as in production, so a test
 * proves what a rollout will do; only the test defaults differ: the JVM is never exited
 * (declare a {@link LifecycleExit} bean to record the code) and the context stays open
 * for the test to inspect. The engine starts once per context, so a test that shuts it
 * down needs {@code @DirtiesContext}. Example and the report's fields:
 * {@code docs/testing.md}.
 */
public final class LifecycleTestSupport {

	private final LifecycleManager manager;

	private LifecycleTestSupport(LifecycleManager manager) {
		this.manager = manager;
	}

	/**
	 * Support for the given running context.
	 * @param context a context with Lifecycle auto-configured
	 * @return the support
	 */
	public static LifecycleTestSupport of(ApplicationContext context) {
		return new LifecycleTestSupport(context.getBean(LifecycleManager.class));
	}

	/** The engine, for handles and component views. */
	public LifecycleManager manager() {
		return this.manager;
	}

	/**
	 * Starts the shutdown as a first SIGTERM would: reason {@code signal}, source
	 * {@code test}.
	 * @return {@code true} if this call started it, {@code false} if a shutdown was
	 * already under way
	 */
	public boolean triggerShutdown() {
		return this.manager.triggerShutdown(ShutdownReason.SIGNAL, TriggerSource.TEST.label());
	}

	/**
	 * Waits for the shutdown's report.
	 * @param timeout the longest wait
	 * @return the report
	 * @throws IllegalStateException if none arrived in time
	 */
	public ShutdownReport awaitReport(Duration timeout) {
		try {
			Optional<ShutdownReport> report = this.manager.awaitTermination(timeout);
			return report.orElseThrow(() -> new IllegalStateException("No Lifecycle shutdown report within " + timeout
					+ (this.manager.isShutdownInitiated() ? "" : "; no shutdown was triggered")));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for the Lifecycle shutdown report", ex);
		}
	}

}
