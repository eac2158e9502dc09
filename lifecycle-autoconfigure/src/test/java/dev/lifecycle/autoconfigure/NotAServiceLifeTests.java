package dev.lifecycle.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.autoconfigure.component.LifecycleCoordinator;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentState;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.spring.ManagedComponent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs that only prepare a service's life (a training run, AOT processing, a checkpoint)
 * leave nothing for the service's next start, and a context pause and restart is no
 * shutdown.
 */
class NotAServiceLifeTests {

	@TempDir
	Path directory;

	private Path marker() {
		return this.directory.resolve("orders.running");
	}

	@Test
	void theKindOfRunIsReadFromSpringsOwnSwitches() {
		assertThat(RunKind.of(properties())).isEqualTo(RunKind.SERVICE);
		assertThat(RunKind.of(properties("spring.context.exit", "onRefresh"))).isEqualTo(RunKind.TRAINING);
		assertThat(RunKind.of(properties("spring.context.exit", "onrefresh"))).isEqualTo(RunKind.TRAINING);
		assertThat(RunKind.of(properties("spring.aot.processing", "true"))).isEqualTo(RunKind.AOT_PROCESSING);
		assertThat(RunKind.of(properties("spring.context.checkpoint", "onRefresh"))).isEqualTo(RunKind.CHECKPOINT);
		assertThat(RunKind.of(properties("spring.context.exit", "never"))).isEqualTo(RunKind.SERVICE);
		assertThat(RunKind.of(properties("spring.aot.processing", "false"))).isEqualTo(RunKind.SERVICE);
	}

	@Test
	void onlyTheServicesLifeAndARestoredCheckpointKeepRecordsAndTrapSignals() {
		assertThat(RunKind.SERVICE.keepsRecords()).isTrue();
		assertThat(RunKind.SERVICE.recordsFromStart()).isFalse();
		assertThat(RunKind.SERVICE.trapsSignals()).isTrue();
		assertThat(RunKind.CHECKPOINT.keepsRecords()).isTrue();
		assertThat(RunKind.CHECKPOINT.recordsFromStart()).isTrue();
		assertThat(RunKind.CHECKPOINT.trapsSignals()).isTrue();
		for (RunKind preparing : new RunKind[] { RunKind.TRAINING, RunKind.AOT_PROCESSING }) {
			assertThat(preparing.keepsRecords()).isFalse();
			assertThat(preparing.trapsSignals()).isFalse();
		}
	}

	@Test
	void underAotProcessingTheManagerNeitherWritesNorReadsTheRunMarker() throws Exception {
		Files.writeString(marker(), "pid=4242 started=2026-11-23T10:00:00Z\n");
		System.setProperty("spring.aot.processing", "true");
		try {
			TestRunners.lifecycle()
				.withPropertyValues("lifecycle.run-marker.enabled=true", "lifecycle.run-marker.path=" + marker())
				.run((context) -> {
					LifecycleManager manager = context.getBean(LifecycleManager.class);
					assertThat(manager.previousRun()).isEmpty();
				});
		}
		finally {
			System.clearProperty("spring.aot.processing");
		}
		// What the previous service process left stays for the service's next start to
		// see.
		assertThat(Files.readString(marker())).isEqualTo("pid=4242 started=2026-11-23T10:00:00Z\n");
		assertThat(this.directory).isDirectoryNotContaining("glob:**.json");
	}

	@Test
	void aPauseAndRestartLeavesReadinessComponentsAndRecordsAlone() throws Exception {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(PausedApplication.class)
			.web(WebApplicationType.NONE)
			.run("--spring.application.name=orders", "--lifecycle.signals.trap=false",
					"--lifecycle.pre-stop.enabled=false", "--lifecycle.halt-after-ceiling=false",
					"--lifecycle.run-marker.path=" + marker());
		try {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			ApplicationAvailability availability = context.getBean(ApplicationAvailability.class);
			PausedApplication application = context.getBean(PausedApplication.class);
			assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);

			context.pause();
			assertPausedOrRestarted(manager, availability);
			context.restart();
			assertPausedOrRestarted(manager, availability);

			assertThat(application.workerStops).hasValue(0);
			context.close();
			ShutdownReport report = manager.report().orElseThrow();
			assertThat(report.clean()).isTrue();
			assertThat(report.trigger().component()).isEqualTo(dev.lifecycle.core.TriggerSource.CONTEXT_CLOSE.label());
			assertThat(application.workerStops).hasValue(1);
			assertThat(marker()).doesNotExist();
		}
		finally {
			context.close();
		}
	}

	private void assertPausedOrRestarted(LifecycleManager manager, ApplicationAvailability availability) {
		assertThat(manager.isShutdownInitiated()).isFalse();
		assertThat(manager.isReady()).isTrue();
		assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
		assertThat(manager.components()).filteredOn((component) -> component.name().equals("worker"))
			.extracting(ComponentView::state)
			.containsExactly(ComponentState.RUNNING);
		assertThat(marker()).exists();
		assertThat(this.directory).isDirectoryNotContaining("glob:**.json");
	}

	private static java.util.function.Function<String, String> properties(String... keyValues) {
		Map<String, String> map = new HashMap<>();
		for (int i = 0; i < keyValues.length; i += 2) {
			map.put(keyValues[i], keyValues[i + 1]);
		}
		return map::get;
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class PausedApplication {

		final AtomicInteger workerStops = new AtomicInteger();

		@Bean
		Worker worker() {
			return new Worker(this.workerStops);
		}

		@Bean
		SmartLifecycle client() {
			return new SmartLifecycle() {

				private volatile boolean running;

				@Override
				public void start() {
					this.running = true;
				}

				@Override
				public void stop() {
					this.running = false;
				}

				@Override
				public boolean isRunning() {
					return this.running;
				}

			};
		}

	}

	@ManagedComponent(value = "worker", phase = 10)
	static class Worker implements PassiveComponent {

		private final AtomicInteger stops;

		Worker(AtomicInteger stops) {
			this.stops = stops;
		}

		@Override
		public void stop(ComponentHandle handle) {
			this.stops.incrementAndGet();
		}

	}

}
