package dev.lifecycle.sample.status;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.core.Tier;
import dev.lifecycle.sample.SampleProperties;
import dev.lifecycle.sample.pipeline.Pipeline;
import dev.lifecycle.spring.ManagedComponent;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sample's observability component: it publishes the pipeline's progress as gauges
 * ({@code sample_pipeline_offset}, {@code sample_pipeline_checkpoint_offset},
 * {@code sample_pipeline_lag_events}, scraped with everything else at
 * {@code /actuator/prometheus}) and logs a status line every
 * {@code sample.status.interval}.
 *
 * <p>
 * Observability tier: it keeps running while the standard components drain and is told to
 * stop only after they have all finished, so the last status line it logs at stop shows
 * the pipeline's final state and checkpoint. The actuator endpoints themselves are served
 * by the embedded web server, which outlives the whole sequence.
 */
@ManagedComponent(value = StatusReporter.NAME, tier = Tier.OBSERVABILITY)
public class StatusReporter implements PassiveComponent {

	/** The component name. */
	public static final String NAME = "status-reporter";

	private static final Logger logger = LoggerFactory.getLogger(StatusReporter.class);

	private final Pipeline pipeline;

	private final long intervalMillis;

	private ScheduledExecutorService scheduler;

	private ScheduledFuture<?> task;

	public StatusReporter(Pipeline pipeline, SampleProperties properties, MeterRegistry registry) {
		this.pipeline = pipeline;
		this.intervalMillis = Math.max(100, properties.status().interval().toMillis());
		Gauge.builder("sample.pipeline.offset", pipeline, Pipeline::offset)
			.description("Last log offset included in the pipeline's aggregates")
			.register(registry);
		Gauge.builder("sample.pipeline.checkpoint.offset", pipeline, Pipeline::checkpointOffset)
			.description("Log offset of the pipeline's last durable checkpoint")
			.register(registry);
		Gauge.builder("sample.pipeline.lag", pipeline, (p) -> Math.max(0, p.latestAppended() - p.offset()))
			.description("Acknowledged events not yet aggregated")
			.baseUnit("events")
			.register(registry);
	}

	@Override
	public synchronized void start(ComponentHandle handle) {
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "status-reporter");
			thread.setDaemon(true);
			return thread;
		});
		this.task = this.scheduler.scheduleAtFixedRate(() -> log("Status"), this.intervalMillis, this.intervalMillis,
				TimeUnit.MILLISECONDS);
	}

	@Override
	public synchronized void stop(ComponentHandle handle) {
		if (this.task != null) {
			this.task.cancel(false);
			this.scheduler.shutdown();
		}
		log("Final status");
	}

	private void log(String label) {
		logger.info("{}: pipeline {} at offset {}, checkpoint at offset {}, lag {} event(s)", label,
				this.pipeline.state(), this.pipeline.offset(), this.pipeline.checkpointOffset(),
				Math.max(0, this.pipeline.latestAppended() - this.pipeline.offset()));
	}

}
