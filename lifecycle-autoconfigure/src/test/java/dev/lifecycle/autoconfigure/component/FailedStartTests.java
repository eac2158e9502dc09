package dev.lifecycle.autoconfigure.component;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.autoconfigure.TestRunners;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.core.PreviousRun;
import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.spring.ManagedComponent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A start that fails after components started is recorded as a failed start: its own
 * trigger reason naming the bean and the cause, not clean, exit code 1, each component
 * stopped once; the next start's summary and the metrics say the same.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
public class FailedStartTests {

	@TempDir
	Path directory;

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private final Stops stops = new Stops();

	private Path marker() {
		return this.directory.resolve("orders.running");
	}

	private ApplicationContextRunner runner() {
		return TestRunners.lifecycle()
			.withBean(MeterRegistry.class, () -> this.registry)
			.withBean(Stops.class, () -> this.stops)
			.withPropertyValues("lifecycle.run-marker.enabled=true", "lifecycle.run-marker.path=" + marker());
	}

	@Test
	void aBeanWhoseStartThrowsAfterTheComponentsStartedEndsTheRunAsAFailedStartNamingItAndTheCause() {
		runner().withBean(Worker.class)
			.withBean("client", CountingLifecycle.class, () -> new CountingLifecycle("client", 0, this.stops))
			.withBean("sameTimeClient", CountingLifecycle.class,
					() -> new CountingLifecycle("sameTimeClient", SmartLifecycle.DEFAULT_PHASE, this.stops))
			.withBean("licenceCheck", FailingLifecycle.class, FailingLifecycle::new)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasMessageContaining("Failed to start bean 'licenceCheck'");
			});

		// Every component that started was told to stop exactly once, by the engine.
		assertThat(this.stops.counts())
			.containsExactlyInAnyOrderEntriesOf(Map.of("worker", 1, "client", 1, "sameTimeClient", 1));
		assertThat(marker()).doesNotExist();
		PreviousRun previous = nextStart();
		assertThat(previous.unclean()).isFalse();
		assertThat(previous.report()).satisfies((report) -> {
			assertThat(report.clean()).isEqualTo(false);
			assertThat(report.exitCode()).isEqualTo(1);
			assertThat(report.state()).isEqualTo(ShutdownRecord.State.COMPLETED);
			assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.START_FAILED, "licenceCheck",
					"java.lang.IllegalStateException: licence expired"));
		});
		assertThat(previous.summary()).contains("): start-failed of 'licenceCheck', not clean, ").endsWith(", exit 1");
		assertThat(initiated("licenceCheck", "start-failed")).isEqualTo(1.0);
		assertThat(this.registry.find("lifecycle.shutdown.completed").tag("clean", "false").counter())
			.extracting(Counter::count)
			.isEqualTo(1.0);
	}

	@Test
	void aBeanWhoseStartThrowsBeforeTheEngineStartedIsAFailedStartToo() {
		runner().withBean(Worker.class)
			.withBean("earlyClient", FailingLifecycle.class,
					() -> new FailingLifecycle(SmartLifecycle.DEFAULT_PHASE - 4096))
			.run((context) -> assertThat(context).hasFailed());

		assertThat(this.stops.counts()).isEmpty();
		assertThat(marker()).doesNotExist();
		PreviousRun previous = nextStart();
		assertThat(previous.report()).satisfies((report) -> {
			assertThat(report.clean()).isEqualTo(false);
			assertThat(report.exitCode()).isEqualTo(1);
			assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.START_FAILED, "earlyClient",
					"java.lang.IllegalStateException: licence expired"));
		});
	}

	@Test
	void aComponentWhoseStartThrowsIsTheFailedStartNotTheCoordinator() {
		runner().withBean(Worker.class)
			.withBean(BrokenComponent.class)
			.run((context) -> assertThat(context).hasFailed());

		assertThat(this.stops.counts()).containsExactlyInAnyOrderEntriesOf(Map.of("worker", 1));
		PreviousRun previous = nextStart();
		assertThat(previous.report()).satisfies((report) -> {
			assertThat(report.clean()).isEqualTo(false);
			assertThat(report.exitCode()).isEqualTo(1);
			assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.START_FAILED, "broken",
					"java.lang.IllegalStateException: broker unreachable"));
		});
		assertThat(initiated("broken", "start-failed")).isEqualTo(1.0);
	}

	@Test
	void withSpringsOwnLifecycleProcessorAFailedStartIsStillAFailedStartOfTheRefresh() {
		runner().withPropertyValues("lifecycle.adoption.enabled=false")
			.withBean(Worker.class)
			.withBean("licenceCheck", FailingLifecycle.class, FailingLifecycle::new)
			.run((context) -> assertThat(context).hasFailed());

		assertThat(this.stops.counts()).containsExactlyInAnyOrderEntriesOf(Map.of("worker", 1));
		PreviousRun previous = nextStart();
		assertThat(previous.report()).satisfies((report) -> {
			assertThat(report.clean()).isEqualTo(false);
			assertThat(report.exitCode()).isEqualTo(1);
			assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.START_FAILED, "refresh",
					"the application context's refresh failed after the components started"));
		});
	}

	@Test
	void aRefreshListenerThatThrowsAfterTheComponentsStartedIsAFailedStartOfTheRefresh() {
		runner().withBean(Worker.class)
			.withBean("failingListener", org.springframework.context.ApplicationListener.class,
					() -> (org.springframework.context.ApplicationListener<org.springframework.context.event.ContextRefreshedEvent>) (
							event) -> {
						throw new IllegalStateException("cache warm-up failed");
					})
			.run((context) -> assertThat(context).hasFailed());

		assertThat(this.stops.counts()).containsExactlyInAnyOrderEntriesOf(Map.of("worker", 1));
		assertThat(nextStart().report()).satisfies((report) -> {
			assertThat(report.clean()).isEqualTo(false);
			assertThat(report.exitCode()).isEqualTo(1);
			assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.START_FAILED, "refresh",
					"the application context's refresh failed after the components started"));
		});
	}

	@Test
	void anOrdinaryCloseAfterTheRefreshIsAShutdownBySignalNotAFailedStart() {
		runner().withBean(Worker.class).run((context) -> assertThat(context).hasNotFailed());

		assertThat(this.stops.counts()).containsExactlyInAnyOrderEntriesOf(Map.of("worker", 1));
		assertThat(nextStart().report()).satisfies((report) -> {
			assertThat(report.clean()).isEqualTo(true);
			assertThat(report.exitCode()).isEqualTo(0);
			assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.SIGNAL, "context-close", ""));
		});
	}

	@Test
	void aRunnerThatThrowsAfterTheRefreshIsAFailedStartOfTheApplicationRunWithTheCause() {
		SpringApplicationBuilder application = new SpringApplicationBuilder(RunnerApplication.class)
			.web(WebApplicationType.NONE);

		assertThatIllegalStateException().isThrownBy(() -> application.run("--spring.application.name=orders",
				"--lifecycle.signals.trap=false", "--lifecycle.pre-stop.enabled=false",
				"--lifecycle.halt-after-ceiling=false", "--lifecycle.run-marker.path=" + marker()))
			.withMessage("import file missing");

		assertThat(RunnerApplication.workerStops).hasValue(1);
		assertThat(marker()).doesNotExist();
		assertThat(nextStart().report()).satisfies((report) -> {
			assertThat(report.clean()).isEqualTo(false);
			assertThat(report.exitCode()).isEqualTo(1);
			assertThat(report.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.START_FAILED, "application-run",
					"java.lang.IllegalStateException: import file missing"));
		});
	}

	private double initiated(String component, String reason) {
		Counter counter = this.registry.find("lifecycle.shutdown.initiated")
			.tag("trigger_component", component)
			.tag("trigger_reason", reason)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	/** What the next start of the service learns of this one. */
	private PreviousRun nextStart() {
		LifecycleManager next = LifecycleManager.builder("orders").runMarker(marker()).build();
		return next.previousRun().orElseThrow();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class RunnerApplication {

		static final AtomicInteger workerStops = new AtomicInteger();

		@Bean
		Stops stops() {
			return new Stops() {

				@Override
				void stopped(String name) {
					workerStops.incrementAndGet();
				}

			};
		}

		@Bean
		Worker worker(Stops stops) {
			return new Worker(stops);
		}

		@Bean
		CommandLineRunner importer() {
			return (args) -> {
				throw new IllegalStateException("import file missing");
			};
		}

	}

	static class Stops {

		private final Map<String, AtomicInteger> counts = new java.util.concurrent.ConcurrentHashMap<>();

		void stopped(String name) {
			this.counts.computeIfAbsent(name, (key) -> new AtomicInteger()).incrementAndGet();
		}

		Map<String, Integer> counts() {
			Map<String, Integer> copy = new java.util.TreeMap<>();
			this.counts.forEach((name, count) -> copy.put(name, count.get()));
			return copy;
		}

	}

	@ManagedComponent(value = "worker", phase = 10)
	static class Worker implements PassiveComponent {

		private final Stops stops;

		Worker(Stops stops) {
			this.stops = stops;
		}

		@Override
		public void stop(ComponentHandle handle) {
			this.stops.stopped("worker");
		}

	}

	@ManagedComponent(value = "broken", phase = 20)
	static class BrokenComponent implements PassiveComponent {

		@Override
		public void start(ComponentHandle handle) {
			throw new IllegalStateException("broker unreachable");
		}

		@Override
		public void stop(ComponentHandle handle) {
		}

	}

	/** A Spring lifecycle bean, adopted, that counts every stop it is told. */
	static class CountingLifecycle implements SmartLifecycle {

		private final String name;

		private final int phase;

		private final Stops stops;

		private volatile boolean running;

		CountingLifecycle(String name, int phase, Stops stops) {
			this.name = name;
			this.phase = phase;
			this.stops = stops;
		}

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			this.stops.stopped(this.name);
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return this.phase;
		}

	}

	/** A bean whose start throws, in the last phase unless told otherwise. */
	public static class FailingLifecycle implements SmartLifecycle {

		private final int phase;

		public FailingLifecycle() {
			this(SmartLifecycle.DEFAULT_PHASE);
		}

		FailingLifecycle(int phase) {
			this.phase = phase;
		}

		@Override
		public void start() {
			throw new IllegalStateException("licence expired");
		}

		@Override
		public void stop() {
		}

		@Override
		public boolean isRunning() {
			return false;
		}

		@Override
		public int getPhase() {
			return this.phase;
		}

	}

}
