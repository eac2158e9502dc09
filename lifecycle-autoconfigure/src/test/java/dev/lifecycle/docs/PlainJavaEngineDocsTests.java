package dev.lifecycle.docs;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The concepts page's engine in plain Java: the consumer drains before the passive server
 * it depends on is stopped, the final checkpoint runs while both still run, and the exit
 * code is 0.
 */
class PlainJavaEngineDocsTests {

	private final List<String> events = new CopyOnWriteArrayList<>();

	private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();

	@Test
	void theEngineRunsTheSequenceInOrderAndExitsCleanly(@TempDir Path tmp) throws Exception {
		Path shutdownFile = tmp.resolve("shutdown");
		// tag::plain-java[]
		LifecycleManager manager = LifecycleManager.builder("orders")
			.globalShutdownTimeout(Duration.ofSeconds(30))
			.preStopFile(shutdownFile) // e.g. Path.of("/tmp/shutdown")
			.build();

		// An active component: a loop on a thread the engine provides. Returning during
		// shutdown is completion.
		manager.registerActive("consumer",
				ComponentOptions.defaults()
					.withPhase(10)
					.withGracefulShutdown(Duration.ofSeconds(10))
					.withLivenessDeadline(Duration.ofSeconds(30)),
				handle -> {
					while (!handle.isShuttingDown()) {
						String message = queue.poll(100, TimeUnit.MILLISECONDS);
						if (message != null) {
							// shutdown waits for this, within the budget
							try (var section = handle.critical()) {
								process(message);
							}
						}
						handle.reportHealthy(); // heartbeat: no clock read, no allocation
					}
				});

		// A passive component: start and stop callbacks.
		manager.registerPassive("http", ComponentOptions.defaults().withPhase(20), new PassiveComponent() {
			public void start(ComponentHandle handle) {
				events.add("http started");
			}

			public void stop(ComponentHandle handle) {
				events.add("http stopped accepting");
			}
		});

		manager.addShutdownHandler("final-checkpoint", Duration.ofSeconds(120), () -> events.add("checkpoint"));
		manager.start();
		// end::plain-java[]
		queue.add("m-1");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.events.contains("processed m-1"));
		manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
		// tag::plain-java-exit[]
		// after SIGTERM, pre-stop file, failure, …
		ShutdownReport report = manager.awaitTermination();
		// System.exit(report.exitCode());
		// end::plain-java-exit[]
		assertThat(report.exitCode()).isZero();
		assertThat(report.component("consumer").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(this.events).containsSubsequence("http started", "checkpoint", "http stopped accepting");
	}

	private void process(String message) {
		this.events.add("processed " + message);
	}

}
