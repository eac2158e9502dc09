package dev.lifecycle.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.core.record.ReportFiles;
import dev.lifecycle.core.record.ReportJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A failed start is recorded as one, with its own trigger reason; and a manager that
 * keeps its records from its start leaves nothing behind when it is never started.
 */
class StartFailedAndRecordsAtStartTest {

	@TempDir
	Path directory;

	private Path marker() {
		return this.directory.resolve("lifecycle-orders.running");
	}

	private LifecycleManager.Builder builder() {
		return LifecycleManager.builder("orders").runMarker(marker());
	}

	private List<Path> reports() {
		return new ReportFiles(this.directory.resolve("lifecycle-orders.running")).list();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> read(Path file) throws IOException {
		return (Map<String, Object>) ReportJson.parse(Files.readString(file));
	}

	@Test
	void aComponentWhoseStartThrowsEndsTheRunAsAFailedStartNamingItAndTheCause() throws Exception {
		AtomicInteger pipelineStops = new AtomicInteger();
		LifecycleManager manager = builder().build();
		manager.registerPassive("pipeline", ComponentOptions.defaults().withPhase(10), new PassiveComponent() {

			@Override
			public void start(ComponentHandle handle) {
			}

			@Override
			public void stop(ComponentHandle handle) {
				pipelineStops.incrementAndGet();
			}

		});
		manager.registerPassive("broker", ComponentOptions.defaults().withPhase(20), new PassiveComponent() {

			@Override
			public void start(ComponentHandle handle) {
				throw new IllegalStateException("broker unreachable");
			}

			@Override
			public void stop(ComponentHandle handle) {
			}

		});

		assertThatIllegalStateException().isThrownBy(manager::start)
			.withMessage("Lifecycle: component 'broker' failed to start");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.START_FAILED, "broker",
				"java.lang.IllegalStateException: broker unreachable"));
		assertThat(report.clean()).isFalse();
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(pipelineStops).hasValue(1);
		assertThat(read(reports().get(0))).containsEntry("clean", false)
			.containsEntry("exitCode", 1L)
			.containsEntry("trigger", Map.of("reason", "start-failed", "component", "broker", "detail",
					"java.lang.IllegalStateException: broker unreachable"));
	}

	@Test
	void aFailedStartReportedFromOutsideIsNotCleanAndTheNextStartSaysWhatFailed() throws Exception {
		LifecycleManager first = builder().build();
		first.registerPassive("pipeline", ComponentOptions.defaults(), (handle) -> {
		});
		first.start();

		assertThat(first.triggerShutdown(ShutdownReason.START_FAILED, "lateBean",
				"java.lang.IllegalStateException: no licence"))
			.isTrue();
		ShutdownReport report = first.awaitTermination();

		assertThat(report.clean()).isFalse();
		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(marker()).doesNotExist();
		LifecycleManager next = builder().build();
		next.start();
		PreviousRun previous = next.previousRun().orElseThrow();
		assertThat(previous.unclean()).isFalse();
		assertThat(previous.summary()).contains("): start-failed of 'lateBean', not clean, ").endsWith(", exit 1");
		next.triggerShutdown(ShutdownReason.SIGNAL, "test");
		next.awaitTermination();
	}

	@Test
	void recordsKeptFromTheStartAreNotWrittenByAManagerThatNeverStarts() throws Exception {
		LifecycleManager training = builder().runMarkerAtStart(true).build();
		training.registerPassive("pipeline", ComponentOptions.defaults(), (handle) -> {
		});

		// A training run or a checkpoint ends here, before the start.
		assertThat(marker()).doesNotExist();
		assertThat(training.previousRun()).isEmpty();
		assertThat(this.directory).isEmptyDirectory();

		LifecycleManager service = builder().build();
		assertThat(service.previousRun()).isEmpty();
		service.start();
		service.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		service.awaitTermination();
	}

	@Test
	void recordsKeptFromTheStartBeginAtTheStartAndSeeTheRunBefore() throws Exception {
		Files.writeString(marker(), "pid=4242 started=2026-11-23T10:00:00Z\n");
		LifecycleManager restored = builder().runMarkerAtStart(true).build();
		assertThat(restored.previousRun()).isEmpty();
		assertThat(Files.readString(marker())).startsWith("pid=4242 ");

		restored.start();

		assertThat(restored.previousRun()).hasValueSatisfying((previous) -> assertThat(previous.unclean()).isTrue());
		assertThat(Files.readString(marker())).startsWith("pid=" + ProcessHandle.current().pid() + " ");
		restored.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		assertThat(restored.awaitTermination().clean()).isTrue();
		assertThat(marker()).doesNotExist();
		assertThat(read(reports().get(0))).containsEntry("state", "completed");
	}

	@Test
	void aStallADeathAndCompletedWorkStayTheEnginesOwnVerdicts() {
		LifecycleManager manager = LifecycleManager.builder("orders").build();
		for (ShutdownReason reason : List.of(ShutdownReason.STALLED, ShutdownReason.DIED, ShutdownReason.COMPLETED)) {
			org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
				.isThrownBy(() -> manager.triggerShutdown(reason, "test", "detail"))
				.withMessageContaining("START_FAILED");
		}
		assertThat(manager.isShutdownInitiated()).isFalse();
	}

}
