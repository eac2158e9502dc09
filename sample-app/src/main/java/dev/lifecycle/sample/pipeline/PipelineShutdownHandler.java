package dev.lifecycle.sample.pipeline;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import dev.lifecycle.sample.SampleProperties;
import dev.lifecycle.sample.backup.BackupService;
import dev.lifecycle.sample.store.StoreException;
import dev.lifecycle.spring.ShutdownHandler;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * The pipeline's shutdown handler, modelled on Arroyo's {@code PipelineShutdownHandler}:
 * it runs at step 3 of the shutdown sequence, after the drain delay and while every
 * component still runs.
 * <ol>
 * <li>Ask the pipeline to stop with a final checkpoint.</li>
 * <li>Wait up to {@code sample.pipeline.stop-timeout} (120 s by default) for STOPPED or
 * FAILED; if the wait expires, log an error and go on: the last regular checkpoint plus
 * the log still recover every acknowledged event, only the replay at the next start is
 * longer.</li>
 * <li>Take a consistent backup of the database ({@code VACUUM INTO}) into the backup
 * target, or the local fallback when the advisory backup-target component is unhealthy,
 * and wait for it.</li>
 * </ol>
 * Ingestion keeps accepting during this handler (it stops in the standard drain that
 * follows), so the backup holds the final checkpoint but may miss the last few
 * acknowledged events; they are in the live database's log and are replayed at the next
 * start, so none is lost.
 */
@Component
public class PipelineShutdownHandler {

	private static final Logger logger = LoggerFactory.getLogger(PipelineShutdownHandler.class);

	private final Pipeline pipeline;

	private final BackupService backups;

	private final Duration stopTimeout;

	@Autowired
	public PipelineShutdownHandler(Pipeline pipeline, BackupService backups, SampleProperties properties) {
		this(pipeline, backups, properties.pipeline().stopTimeout());
	}

	PipelineShutdownHandler(Pipeline pipeline, BackupService backups, Duration stopTimeout) {
		this.pipeline = pipeline;
		this.backups = backups;
		this.stopTimeout = stopTimeout;
	}

	/**
	 * Final checkpoint, then backup. Its own timeout
	 * ({@code sample.pipeline.handler-timeout}, 150 s by default) must exceed the stop
	 * timeout plus the backup time; the global shutdown timeout must exceed both plus the
	 * drain delay and the drains.
	 * <p>
	 * It reports its outcome honestly by throwing, so that the shutdown report is not
	 * clean and the exit code is 1: when the backup failed on both the target and the
	 * fallback, or when the pipeline did not stop with a final checkpoint (it FAILED, or
	 * the wait expired). It still takes the backup in the second case: the last regular
	 * checkpoint plus the log recover every acknowledged event.
	 * @throws InterruptedException if the sequence gives up on the handler
	 * @throws IllegalStateException if the final checkpoint or the backup is missing
	 */
	@ShutdownHandler(name = "pipeline-checkpoint-and-backup", timeout = "${sample.pipeline.handler-timeout:150s}")
	@Order(1)
	public void stopPipelineAndBackUp() throws InterruptedException {
		String checkpointProblem = stopPipeline();
		Path file;
		try {
			file = backUp();
		}
		catch (StoreException ex) {
			throw new IllegalStateException("No final backup: " + ex.getMessage()
					+ ((checkpointProblem != null) ? "; and " + checkpointProblem : ""), ex);
		}
		if (checkpointProblem != null) {
			throw new IllegalStateException("No final checkpoint: " + checkpointProblem + " (the backup " + file
					+ " holds the last checkpoint, at offset " + this.pipeline.checkpointOffset()
					+ "; the log keeps every acknowledged event for the replay at the next start)");
		}
	}

	/**
	 * Stops the pipeline; returns why there is no final checkpoint, or null if there is
	 * one (or none was due).
	 */
	@Nullable String stopPipeline() throws InterruptedException {
		PipelineState before = this.pipeline.state();
		if (before == PipelineState.FAILED) {
			logger.error(
					"Shutdown handler: the pipeline had FAILED before the shutdown; its last checkpoint is at offset {}",
					this.pipeline.checkpointOffset());
			return "the pipeline had FAILED before the shutdown";
		}
		if (before.isTerminal()) {
			logger.info("Shutdown handler: the pipeline is already {}", before);
			return null;
		}
		logger.info("Shutdown handler: asking the pipeline to stop with a final checkpoint (state {}, offset {})",
				before, this.pipeline.offset());
		long start = System.nanoTime();
		this.pipeline.requestStopWithCheckpoint();
		if (before == PipelineState.STARTING) {
			logger.info("Shutdown handler: the pipeline never ran; its recovery checkpoint at offset {} stands",
					this.pipeline.checkpointOffset());
			return null;
		}
		Optional<PipelineState> reached = this.pipeline.awaitState(this.stopTimeout, PipelineState.STOPPED,
				PipelineState.FAILED);
		long millis = (System.nanoTime() - start) / 1_000_000;
		if (reached.isEmpty()) {
			logger
				.error("Shutdown handler: the pipeline did not reach STOPPED or FAILED within {} (state {}); going on "
						+ "without a final checkpoint (the last one is at offset {}; the log keeps every acknowledged event "
						+ "for replay)", this.stopTimeout, this.pipeline.state(), this.pipeline.checkpointOffset());
			return "the pipeline did not stop within sample.pipeline.stop-timeout=" + this.stopTimeout;
		}
		if (reached.get() == PipelineState.FAILED) {
			logger
				.error("Shutdown handler: the pipeline FAILED while stopping (after {} ms); the last checkpoint is at "
						+ "offset {}", millis, this.pipeline.checkpointOffset());
			return "the pipeline FAILED while stopping";
		}
		logger.info("Shutdown handler: the pipeline is STOPPED with a final checkpoint at offset {} ({} ms)",
				this.pipeline.checkpointOffset(), millis);
		return null;
	}

	Path backUp() {
		logger.info("Shutdown handler: backing up the database");
		Path file = this.backups.backup();
		logger.info("Shutdown handler: backup complete: {}", file);
		return file;
	}

}
