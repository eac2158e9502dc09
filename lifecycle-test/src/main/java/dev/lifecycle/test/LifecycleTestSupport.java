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
 * Drives a deterministic shutdown from a {@code @SpringBootTest}, without signals: the test
 * counterpart of sending SIGTERM.
 *
 * <pre>{@code
 * @SpringBootTest
 * @DirtiesContext // the engine cannot start twice: give later tests a fresh context
 * class OrdersShutdownTests {
 *
 *     @Autowired
 *     ApplicationContext context;
 *
 *     @Test
 *     void drainsCleanly() {
 *         LifecycleTestSupport lifecycle = LifecycleTestSupport.of(this.context);
 *         lifecycle.triggerShutdown();
 *         ShutdownReport report = lifecycle.awaitReport(Duration.ofSeconds(10));
 *         assertThat(report.exitCode()).isZero();
 *     }
 *
 * }
 * }</pre>
 *
 * <p>The sequence runs exactly as in production: readiness turns DOWN at once, then shutdown
 * handlers, the drain by phase, final actions and the observability drain follow, while the web
 * server keeps serving. Only the defaults for tests differ (see the package documentation):
 * {@code lifecycle.signals.trap=false} (the JVM is never exited; replace {@link LifecycleExit} with
 * a bean to record the exit code), {@code lifecycle.close-context=false} (the context stays open
 * after the report, for the test to inspect, until the framework closes it),
 * {@code lifecycle.drain-delay=0s}, and no pre-stop file or run marker. Set a property on the test
 * to change any of them.
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
	 * Starts the shutdown as a first SIGTERM would: reason {@code signal}, source {@code test}.
	 * @return {@code true} if this call started it, {@code false} if a shutdown was already under way
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
			return report.orElseThrow(() -> new IllegalStateException("No Lifecycle shutdown report within "
					+ timeout + (this.manager.isShutdownInitiated() ? "" : "; no shutdown was triggered")));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for the Lifecycle shutdown report", ex);
		}
	}

}
