package dev.lifecycle.sample.plain;

import dev.lifecycle.sample.ingest.Ingestion;
import dev.lifecycle.sample.pipeline.Pipeline;
import dev.lifecycle.sample.pipeline.PipelineShutdownHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Hand-written start and stop of the sample without Lifecycle. It runs in Spring's
 * default phase, so on context close it stops before the web server's graceful shutdown
 * begins: the final checkpoint and the backup happen while Tomcat still accepts events
 * (they stay in the log and are replayed at the next start). Readiness is whatever plain
 * Spring Boot reports: refusing from the context-closed event on, with no delay between
 * that and the listener closing.
 */
final class PlainSpringLifecycle implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(PlainSpringLifecycle.class);

	private final Ingestion ingestion;

	private final Pipeline pipeline;

	private final PipelineShutdownHandler shutdownHandler;

	private volatile Thread pipelineThread;

	PlainSpringLifecycle(Ingestion ingestion, Pipeline pipeline, PipelineShutdownHandler shutdownHandler) {
		this.ingestion = ingestion;
		this.pipeline = pipeline;
		this.shutdownHandler = shutdownHandler;
	}

	@Override
	public void start() {
		Thread thread = new Thread(this::runPipeline, "pipeline");
		this.pipelineThread = thread;
		thread.start();
		this.ingestion.acceptUnmanaged();
	}

	private void runPipeline() {
		try {
			this.pipeline.runUnmanaged();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			// Pipeline logs its own failure; the state FAILED is what the shutdown reads.
		}
	}

	@Override
	public void stop() {
		try {
			this.shutdownHandler.stopPipelineAndBackUp();
			Thread thread = this.pipelineThread;
			if (thread != null) {
				thread.join(5_000);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			logger.warn("Plain Spring stop: interrupted before the pipeline stopped");
		}
		catch (RuntimeException ex) {
			// Plain Spring has no outcome to report it in: the log is all there is.
			logger.error("Plain Spring stop: {}", ex.getMessage(), ex);
		}
		finally {
			this.pipelineThread = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.pipelineThread != null;
	}

}
