package dev.lifecycle.sample.pipeline;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.sample.SampleProperties;
import dev.lifecycle.sample.store.Aggregate;
import dev.lifecycle.sample.store.Checkpoint;
import dev.lifecycle.sample.store.EventStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The pipeline on a real engine, against a real database. */
class PipelineTest {

	private static final SampleProperties.Pipeline SETTINGS = new SampleProperties.Pipeline(50, 100,
			Duration.ofMillis(300), Duration.ofMillis(20), Duration.ofSeconds(10));

	@TempDir
	Path dir;

	private EventStore store;

	@BeforeEach
	void open() {
		this.store = new EventStore(this.dir.resolve("events.db"), "NORMAL", Duration.ofSeconds(5));
	}

	@AfterEach
	void close() {
		this.store.close();
	}

	private LifecycleManager run(Pipeline pipeline) {
		LifecycleManager manager = LifecycleManager.builder("test").build();
		manager.registerActive(Pipeline.NAME,
				ComponentOptions.defaults().withPhase(Pipeline.PHASE).withLivenessDeadline(Duration.ofSeconds(10)),
				pipeline);
		manager.start();
		return manager;
	}

	@Test
	void recoversFromTheCheckpointAndReplaysTheRestOfTheLogBeforeRunning() throws Exception {
		for (int i = 1; i <= 10; i++) {
			this.store.append("e" + i, (i <= 5) ? "a" : "b", i);
		}
		// A checkpoint that includes the first five events only.
		this.store.writeCheckpoint(5, Map.of("a", new Aggregate(15, 5)));
		Pipeline pipeline = new Pipeline(this.store, SETTINGS, false);
		pipeline.recover();
		CountsSnapshot snapshot = pipeline.snapshot();
		assertThat(snapshot.offset()).isEqualTo(10);
		assertThat(snapshot.aggregates()).containsOnly(Map.entry("a", new Aggregate(15, 5)),
				Map.entry("b", new Aggregate(40, 5)));
		assertThat(snapshot.state()).isEqualTo(PipelineState.STARTING);
		// Replayed progress is checkpointed at once.
		assertThat(this.store.loadCheckpoint().offset()).isEqualTo(10);
	}

	@Test
	void consumesNewEventsAndCheckpointsByCountAndByTime() throws Exception {
		Pipeline pipeline = new Pipeline(this.store, SETTINGS, false);
		pipeline.recover();
		LifecycleManager manager = run(pipeline);
		for (int i = 1; i <= 250; i++) {
			this.store.append("e" + i, "k" + (i % 3), 1);
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> pipeline.offset() == 250);
		// 250 events: checkpoints at ≥100 and ≥200 by count, the rest by time.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.store.loadCheckpoint().offset() == 250);
		assertThat(pipeline.count("k0").aggregate()).contains(new Aggregate(83, 83));
		assertThat(pipeline.state()).isEqualTo(PipelineState.RUNNING);
		manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
		manager.awaitTermination();
	}

	@Test
	void stopWithCheckpointConsumesEverythingCommittedThenStops() throws Exception {
		Pipeline pipeline = new Pipeline(this.store, new SampleProperties.Pipeline(10, 1_000_000, Duration.ofHours(1),
				Duration.ofMillis(20), Duration.ofSeconds(10)), false);
		pipeline.recover();
		LifecycleManager manager = run(pipeline);
		await().until(() -> pipeline.state() == PipelineState.RUNNING);
		for (int i = 1; i <= 500; i++) {
			this.store.append("e" + i, "k", 2);
		}
		// No checkpoint would happen on its own (huge thresholds): only the final one.
		pipeline.requestStopWithCheckpoint();
		assertThat(pipeline.awaitState(Duration.ofSeconds(10), PipelineState.STOPPED, PipelineState.FAILED))
			.contains(PipelineState.STOPPED);
		Checkpoint checkpoint = this.store.loadCheckpoint();
		assertThat(checkpoint.offset()).isEqualTo(500);
		assertThat(checkpoint.aggregates()).isEqualTo(Map.of("k", new Aggregate(1000, 500)));
		// Its run returned during the shutdown sequence: a completion, not a death.
		manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
		ShutdownReport report = manager.awaitTermination();
		assertThat(report.exitCode()).isZero();
		assertThat(report.components()).singleElement().extracting((c) -> c.outcome()).isEqualTo(Outcome.COMPLETED);
	}

	@Test
	void engineStopWithoutTheHandlerAlsoEndsWithAFinalCheckpoint() throws Exception {
		Pipeline pipeline = new Pipeline(this.store, new SampleProperties.Pipeline(10, 1_000_000, Duration.ofHours(1),
				Duration.ofMillis(20), Duration.ofSeconds(10)), false);
		pipeline.recover();
		LifecycleManager manager = run(pipeline);
		for (int i = 1; i <= 42; i++) {
			this.store.append("e" + i, "k", 1);
		}
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		assertThat(manager.awaitTermination().exitCode()).isZero();
		assertThat(pipeline.state()).isEqualTo(PipelineState.STOPPED);
		assertThat(this.store.loadCheckpoint().offset()).isEqualTo(42);
	}

	@Test
	void aRestartAfterStopCountsEveryEventExactlyOnce() throws Exception {
		Pipeline first = new Pipeline(this.store, SETTINGS, false);
		first.recover();
		LifecycleManager manager = run(first);
		for (int i = 1; i <= 120; i++) {
			this.store.append("e" + i, "k", 1);
		}
		first.requestStopWithCheckpoint();
		first.awaitState(Duration.ofSeconds(10), PipelineState.STOPPED);
		// Acknowledged after the final checkpoint (ingestion still runs during the
		// handler).
		for (int i = 121; i <= 130; i++) {
			this.store.append("e" + i, "k", 1);
		}
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		manager.awaitTermination();
		Pipeline second = new Pipeline(this.store, SETTINGS, false);
		second.recover();
		assertThat(second.count("k").aggregate()).contains(new Aggregate(130, 130));
	}

}
