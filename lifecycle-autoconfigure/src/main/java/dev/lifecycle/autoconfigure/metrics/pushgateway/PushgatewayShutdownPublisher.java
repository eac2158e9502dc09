package dev.lifecycle.autoconfigure.metrics.pushgateway;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.lifecycle.autoconfigure.metrics.MicrometerLifecycleMetrics;
import dev.lifecycle.autoconfigure.process.CeilingHaltHook;
import dev.lifecycle.autoconfigure.process.ShutdownExit;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownTrigger;
import io.prometheus.metrics.exporter.pushgateway.PushGateway;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;

/**
 * Pushes the application's metrics to Spring Boot's Pushgateway at the three moments of a
 * shutdown a scrape almost never sees: its first instant (in the background), the end of
 * the sequence (at most {@link #FINAL_PUSH_BOUND}, never past the ceiling) and the
 * {@link ShutdownExit}'s halt past the ceiling (at most {@link #HALT_PUSH_BOUND}), so
 * every shutdown reaches Prometheus, complete or not. Pushes run in order on one daemon
 * thread, so an earlier one never undoes a later one; a failed push is logged once and
 * never fails or delays the shutdown beyond those bounds. Ordered after
 * {@link MicrometerLifecycleMetrics}, so the counters are current.
 */
final class PushgatewayShutdownPublisher implements LifecycleListener, CeilingHaltHook, Ordered {

	/** The longest the end of the sequence waits for its push. */
	static final Duration FINAL_PUSH_BOUND = Duration.ofSeconds(2);

	/**
	 * The longest the watchdog's halt waits for its push: it must stay within its grace.
	 */
	static final Duration HALT_PUSH_BOUND = Duration.ofSeconds(1);

	/** Grouping keys that tell one process from another. */
	private static final Set<String> INSTANCE_KEYS = Set.of("instance", "pod", "pod_name", "hostname", "host");

	private static final Log logger = LogFactory.getLog(PushgatewayShutdownPublisher.class);

	private final PushGateway pushGateway;

	private final Duration ceiling;

	private final ExecutorService pusher = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "lifecycle-pushgateway");
		// A daemon: a push must never be what keeps the JVM alive.
		thread.setDaemon(true);
		return thread;
	});

	private final AtomicBoolean failureLogged = new AtomicBoolean();

	private volatile long initiatedAtNanos;

	/**
	 * @param pushGateway the Pushgateway client, with the registry, job and grouping key
	 * @param ceiling the global shutdown ceiling, which the final push never outlasts
	 */
	PushgatewayShutdownPublisher(PushGateway pushGateway, Duration ceiling) {
		this.pushGateway = pushGateway;
		this.ceiling = ceiling;
	}

	/**
	 * Whether a grouping key names the process; without it, pods overwrite each other's
	 * group.
	 */
	static boolean identifiesTheProcess(Map<String, String> groupingKey) {
		return groupingKey.keySet().stream().anyMatch((key) -> INSTANCE_KEYS.contains(key.toLowerCase()));
	}

	/** Right after {@link MicrometerLifecycleMetrics}, before any other listener. */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 1;
	}

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
		this.initiatedAtNanos = System.nanoTime();
		submit();
	}

	/**
	 * A ceiling exit is pushed too: its initiated count without a completed one is the
	 * evidence.
	 */
	@Override
	public void onShutdownCompleted(ShutdownReport report) {
		if (report.ceilingFired()) {
			// Past the ceiling already: the watchdog's grace is all that is left.
			pushAndWait(HALT_PUSH_BOUND);
			return;
		}
		Duration left = this.ceiling.minusNanos(System.nanoTime() - this.initiatedAtNanos);
		pushAndWait((left.compareTo(FINAL_PUSH_BOUND) < 0) ? left : FINAL_PUSH_BOUND);
	}

	/**
	 * The watchdog is about to halt the JVM: what the counters say now is all there will
	 * be.
	 */
	@Override
	public void beforeHalt() {
		pushAndWait(HALT_PUSH_BOUND);
	}

	private void pushAndWait(Duration bound) {
		Future<?> push = submit();
		if (push == null || bound.isNegative() || bound.isZero()) {
			return;
		}
		try {
			push.get(bound.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			failed("no answer within " + bound.toMillis() + " ms", null);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException ex) {
			// Not thrown: a push catches and logs its own failure.
		}
	}

	private @Nullable Future<?> submit() {
		try {
			return this.pusher.submit(this::push);
		}
		catch (RuntimeException ex) {
			failed(ex.getMessage(), ex);
			return null;
		}
	}

	private void push() {
		try {
			this.pushGateway.pushAdd();
		}
		catch (Exception ex) {
			failed(ex.getMessage(), ex);
		}
	}

	private void failed(@Nullable String reason, @Nullable Exception ex) {
		if (this.failureLogged.compareAndSet(false, true)) {
			logger.warn("Lifecycle: could not push the shutdown's metrics to the Pushgateway (" + reason
					+ "); the shutdown goes on, but Prometheus may not see its completion", ex);
		}
	}

}
