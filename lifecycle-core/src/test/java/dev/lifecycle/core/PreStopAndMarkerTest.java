package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PreStopAndMarkerTest {

	@TempDir
	Path dir;

	private final InMemoryLifecycleMetrics metrics = new InMemoryLifecycleMetrics();

	@Test
	void preStopFileTriggersAShutdownPromptly() throws IOException, InterruptedException {
		Path file = this.dir.resolve("shutdown");
		LifecycleManager manager = LifecycleManager.builder("svc").preStopFile(file).listener(this.metrics).build();
		manager.start();

		Files.createFile(file);

		await().atMost(Duration.ofSeconds(5)).until(() -> !manager.isReady());
		ShutdownReport report = manager.awaitTermination();
		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.PRESTOP);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void preStopFileInADirectoryThatAppearsLaterIsFoundByPolling() throws IOException, InterruptedException {
		Path file = this.dir.resolve("later/shutdown");
		LifecycleManager manager = LifecycleManager.builder("svc").preStopFile(file).build();
		manager.start();

		Files.createDirectories(file.getParent());
		Files.createFile(file);

		assertThat(manager.awaitTermination(Duration.ofSeconds(10))).get()
			.extracting((r) -> r.trigger().reason())
			.isEqualTo(ShutdownReason.PRESTOP);
	}

	@Test
	void anExistingPreStopFileAtStartIsDeletedWithAWarningAndDoesNotShutDown()
			throws IOException, InterruptedException {
		Path file = Files.createFile(this.dir.resolve("shutdown"));
		// Left by an earlier run: older than this JVM.
		Files.setLastModifiedTime(file,
				java.nio.file.attribute.FileTime.from(java.time.Instant
					.ofEpochMilli(java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime())
					.minus(Duration.ofHours(1))));
		LifecycleManager manager = LifecycleManager.builder("svc").preStopFile(file).build();
		LogCapture logs = LogCapture.start();
		try {
			manager.start();

			assertThat(file).doesNotExist();
			assertThat(logs.messages())
				.anySatisfy((line) -> assertThat(line).contains("deleted a pre-stop file left from an earlier run"));
			assertThat(manager.awaitTermination(Duration.ofMillis(300))).isEmpty();
			assertThat(manager.isReady()).isTrue();
		}
		finally {
			logs.stop();
		}
		Files.createFile(file);
		assertThat(manager.awaitTermination(Duration.ofSeconds(10))).isPresent();
	}

	@Test
	void aPreStopFileCreatedDuringStartUpShutsDownOnceStarted() throws IOException, InterruptedException {
		Path file = Files.createFile(this.dir.resolve("shutdown"));
		LifecycleManager manager = LifecycleManager.builder("svc").preStopFile(file).build();

		manager.start();

		ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();
		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.PRESTOP);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void runMarkerOfAnUncleanPreviousRunIsDetectedAndCounted() throws IOException, InterruptedException {
		Path marker = this.dir.resolve("svc.running");
		Files.writeString(marker, "pid=1 started=2026-11-23T10:00:00Z\n");
		LifecycleManager manager = LifecycleManager.builder("svc").runMarker(marker).listener(this.metrics).build();

		manager.start();

		assertThat(this.metrics.uncleanPreviousRuns()).isEqualTo(1);
		assertThat(Files.readString(marker)).startsWith("pid=" + ProcessHandle.current().pid());
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		manager.awaitTermination();
		assertThat(marker).doesNotExist();
	}

	@Test
	void aCeilingExitLeavesTheRunMarkerForTheNextStart() throws InterruptedException {
		Path marker = this.dir.resolve("svc.running");
		LifecycleManager manager = LifecycleManager.builder("svc")
			.runMarker(marker)
			.globalShutdownTimeout(Duration.ofMillis(200))
			.build();
		java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
		manager.registerPassive("stuck", ComponentOptions.defaults(), (handle) -> never.await());
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		assertThat(manager.awaitTermination().exitCode()).isEqualTo(ExitCodes.CEILING);
		never.countDown();

		assertThat(marker).exists();
		LifecycleManager next = LifecycleManager.builder("svc").runMarker(marker).listener(this.metrics).build();
		next.start();
		assertThat(this.metrics.uncleanPreviousRuns()).isEqualTo(1);
		next.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		next.awaitTermination();
	}

	@Test
	void aCleanPreviousRunLeavesNoMarker() throws InterruptedException {
		Path marker = this.dir.resolve("svc.running");
		LifecycleManager first = LifecycleManager.builder("svc").runMarker(marker).listener(this.metrics).build();
		first.start();
		first.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		first.awaitTermination();

		LifecycleManager second = LifecycleManager.builder("svc").runMarker(marker).listener(this.metrics).build();
		second.start();

		assertThat(this.metrics.uncleanPreviousRuns()).isZero();
		second.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		second.awaitTermination();
	}

	private static void olderThanThisJvm(Path path) throws IOException {
		Files.setLastModifiedTime(path,
				java.nio.file.attribute.FileTime.from(java.time.Instant
					.ofEpochMilli(java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime())
					.minus(Duration.ofHours(1))));
	}

	@Test
	void aRunMarkerPathHoldingAnotherFileFailsTheBuildAndTheFileIsNeitherLoggedNorTouched() throws IOException {
		Path marker = this.dir.resolve("credentials");
		Files.writeString(marker, "password=hunter2\n");
		LogCapture logs = LogCapture.start();
		try {
			InvalidOptionException rejected = org.assertj.core.api.Assertions.catchThrowableOfType(
					() -> LifecycleManager.builder("svc").runMarker(marker).build(), InvalidOptionException.class);
			assertThat(rejected.option()).isEqualTo("runMarker");
			assertThat(rejected.problem()).contains(marker.toAbsolutePath().toString())
				.contains("holds a file that is not a Lifecycle run marker")
				.doesNotContain("hunter2");
			assertThat(logs.messages()).noneSatisfy((line) -> assertThat(line).contains("hunter2"));
		}
		finally {
			logs.stop();
		}
		assertThat(Files.readString(marker)).isEqualTo("password=hunter2\n");
	}

	@Test
	void aRunMarkerPathThatIsADirectoryFailsTheBuild() throws IOException {
		Path marker = Files.createDirectory(this.dir.resolve("svc.running"));
		InvalidOptionException rejected = org.assertj.core.api.Assertions.catchThrowableOfType(
				() -> LifecycleManager.builder("svc").runMarker(marker).build(), InvalidOptionException.class);
		assertThat(rejected.option()).isEqualTo("runMarker");
		assertThat(rejected.problem()).contains("is a directory");
		assertThat(marker).isDirectory();
	}

	@Test
	void aPreStopPathHoldingDataFailsTheBuildAndTheDataStays() throws IOException {
		Path database = this.dir.resolve("events.db");
		Files.write(database, new byte[4096]);
		olderThanThisJvm(database);
		InvalidOptionException rejected = org.assertj.core.api.Assertions.catchThrowableOfType(
				() -> LifecycleManager.builder("svc").preStopFile(database).build(), InvalidOptionException.class);
		assertThat(rejected.option()).isEqualTo("preStopFile");
		assertThat(rejected.problem()).contains(database.toString())
			.contains("4096 bytes")
			.contains("never deletes data");
		assertThat(database).hasSize(4096);
	}

	@Test
	void aStalePreStopDirectoryThatCannotBeRemovedIsIgnoredAndOnlyAFreshCreationTriggers() throws Exception {
		Path entry = Files.createDirectory(this.dir.resolve("shutdown"));
		Files.writeString(entry.resolve("keep"), "x");
		olderThanThisJvm(entry);
		LifecycleManager manager = LifecycleManager.builder("svc").preStopFile(entry).build();
		LogCapture logs = LogCapture.start();
		try {
			manager.start();
			assertThat(logs.messages()).anySatisfy((line) -> assertThat(line)
				.contains("cannot remove the pre-stop directory left from an earlier run at " + entry)
				.contains("only a pre-stop file created in its place triggers a shutdown"));
		}
		finally {
			logs.stop();
		}
		assertThat(manager.awaitTermination(Duration.ofMillis(500))).as("a shutdown from the stale entry").isEmpty();
		assertThat(manager.isReady()).isTrue();
		assertThat(entry.resolve("keep")).hasContent("x");

		Files.delete(entry.resolve("keep"));
		Files.delete(entry);
		Files.createFile(entry);
		ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();
		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.PRESTOP);
	}

}
