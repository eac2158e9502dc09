package dev.lifecycle.autoconfigure.observation;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import dev.lifecycle.autoconfigure.TestRunners;
import dev.lifecycle.autoconfigure.component.AdoptionTests;
import dev.lifecycle.autoconfigure.component.LifecycleCoordinator;
import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.Tier;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shutdown as a tracing backend would receive it: what an {@link ObservationHandler}
 * sees of each observation when it stops, with its parent, in the order they stop.
 */
class ShutdownObservationsTests {

	private final Recorder recorder = new Recorder();

	@Test
	void aShutdownIsOneTraceOfStepsWithEachComponentUnderTheStepThatStoppedIt() throws Exception {
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(this.recorder);
		LifecycleManager manager = LifecycleManager.builder("orders")
			.listener(new ShutdownObservations(registry))
			.build();
		manager.registerPassive("pipeline", ComponentOptions.defaults().withPhase(5), (handle) -> {
		});
		manager.registerPassive("metrics", ComponentOptions.defaults().withTier(Tier.OBSERVABILITY), (handle) -> {
		});
		manager.addShutdownHandler("checkpoint", Duration.ofSeconds(5), () -> {
		});
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, dev.lifecycle.core.TriggerSource.CONTEXT_CLOSE.label());
		ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();

		assertThat(report.clean()).isTrue();
		assertThat(this.recorder.stopped()).containsExactly(
				"lifecycle.shutdown.step 'drain delay' under 'lifecycle shutdown' {lifecycle.result=ok, lifecycle.step=drain delay}",
				"lifecycle.shutdown.step 'shutdown handler 'checkpoint'' under 'lifecycle shutdown' "
						+ "{lifecycle.result=ok, lifecycle.step=shutdown handler 'checkpoint'}",
				"lifecycle.shutdown.component 'stop pipeline' under 'standard drain, phase 5' {lifecycle.component=pipeline, "
						+ "lifecycle.phase=5, lifecycle.result=completed, lifecycle.tier=standard}",
				"lifecycle.shutdown.step 'standard drain, phase 5' under 'lifecycle shutdown' "
						+ "{lifecycle.result=ok, lifecycle.step=standard drain, phase 5}",
				"lifecycle.shutdown.component 'stop metrics' under 'observability drain' {lifecycle.component=metrics, "
						+ "lifecycle.phase=0, lifecycle.result=completed, lifecycle.tier=observability}",
				"lifecycle.shutdown.step 'observability drain' under 'lifecycle shutdown' "
						+ "{lifecycle.result=ok, lifecycle.step=observability drain}",
				"lifecycle.shutdown 'lifecycle shutdown' under '-' {lifecycle.ceiling.fired=false, lifecycle.clean=true, "
						+ "lifecycle.exit.code=0, lifecycle.trigger.component=context-close, lifecycle.trigger.reason=signal}");
		assertThat(this.recorder.errors()).isEmpty();
	}

	@Test
	void aCeilingEndsTheTraceWhereTheProcessDidWithTheStuckComponentTimedOutAndTheShutdownInError() throws Exception {
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(this.recorder);
		LifecycleManager manager = LifecycleManager.builder("orders")
			.listener(new ShutdownObservations(registry))
			.globalShutdownTimeout(Duration.ofMillis(500))
			.build();
		manager.registerActive("stuck", ComponentOptions.defaults(), (handle) -> {
			while (!Thread.currentThread().isInterrupted()) {
				try {
					new java.util.concurrent.CountDownLatch(1).await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		});
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, dev.lifecycle.core.TriggerSource.CONTEXT_CLOSE.label());
		ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();

		assertThat(report.ceilingFired()).isTrue();
		assertThat(this.recorder.stopped())
			.anySatisfy((line) -> assertThat(line)
				.startsWith("lifecycle.shutdown.component 'stop stuck' under " + "'standard drain, phase 0'")
				.contains("lifecycle.result=timeout"))
			.last()
			.satisfies((line) -> assertThat(line).startsWith("lifecycle.shutdown 'lifecycle shutdown'")
				.contains("lifecycle.ceiling.fired=true", "lifecycle.clean=false", "lifecycle.exit.code=129"));
		assertThat(this.recorder.errors()).containsExactly("lifecycle.shutdown: global shutdown ceiling fired");
	}

	@Test
	void withSpringBootsObservationsAndAMeterHandlerTheMetricsStayTheFiveLifecycleSeries() {
		TestRunners.lifecycle()
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class,
					LifecycleObservationAutoConfiguration.class))
			.withBean("recorder", Recorder.class, () -> this.recorder)
			.withBean(MeterHandlerOnTheRealRegistry.class)
			.withBean("pipeline", AdoptionTests.SlowLifecycle.class,
					() -> new AdoptionTests.SlowLifecycle("pipeline", new TestRunners.Events()))
			.run((context) -> {
				assertThat(context).hasSingleBean(ShutdownObservations.class);
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				PrometheusMeterRegistry meters = context.getBean(PrometheusMeterRegistry.class);
				MeterHandlerOnTheRealRegistry handler = context.getBean(MeterHandlerOnTheRealRegistry.class);
				manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
				manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();
				String scrape = meters.scrape();

				assertThat(this.recorder.stopped())
					.anySatisfy((line) -> assertThat(line).startsWith("lifecycle.shutdown.component 'stop pipeline'"))
					.last()
					.satisfies((line) -> assertThat(line).startsWith("lifecycle.shutdown 'lifecycle shutdown'"));
				assertThat(scrape.lines()
					.filter((line) -> line.startsWith("lifecycle"))
					.map((line) -> line.replaceAll("[{ ].*", ""))
					.distinct())
					.isNotEmpty()
					.allMatch((series) -> series.matches("lifecycle_(shutdown_initiated_total|shutdown_completed_total|"
							+ "component_shutdown_duration_seconds_(bucket|count|sum|max)|component_shutdown_result_total|"
							+ "component_healthy)"));
				assertThat(handler.observedMeters()).isPositive();
			});
	}

	@Test
	void springBootsObservationSwitchTurnsThemOff() {
		TestRunners.lifecycle()
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class,
					LifecycleObservationAutoConfiguration.class))
			.withBean("recorder", Recorder.class, () -> this.recorder)
			.withPropertyValues("management.observations.enable.lifecycle=false")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
				manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();
				assertThat(this.recorder.stopped()).isEmpty();
			});
	}

	@Test
	void aUserBeanNamedLifecycleObservationsReplacesOurs() {
		TestRunners.lifecycle()
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class,
					LifecycleObservationAutoConfiguration.class))
			.withBean("lifecycleObservations", dev.lifecycle.core.LifecycleListener.class,
					() -> new dev.lifecycle.core.LifecycleListener() {
					})
			.run((context) -> assertThat(context).doesNotHaveBean(ShutdownObservations.class));
	}

	/**
	 * Micrometer's meter handler on the application's own registry, as tracing setups
	 * register it: proves the observations would otherwise have become meters there.
	 */
	static final class MeterHandlerOnTheRealRegistry
			implements org.springframework.beans.factory.SmartInitializingSingleton {

		private final ObservationRegistry observations;

		private final MeterRegistry meters;

		private final CountingHandler counting = new CountingHandler();

		MeterHandlerOnTheRealRegistry(ObservationRegistry observations, MeterRegistry meters) {
			this.observations = observations;
			this.meters = meters;
		}

		@Override
		public void afterSingletonsInstantiated() {
			this.observations.observationConfig()
				.observationHandler(new DefaultMeterObservationHandler(this.meters))
				.observationHandler(this.counting);
		}

		int observedMeters() {
			return this.counting.count;
		}

	}

	static final class CountingHandler implements ObservationHandler<Observation.Context> {

		private volatile int count;

		@Override
		public void onStop(Observation.Context context) {
			this.count++;
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context.getName().startsWith("lifecycle.");
		}

	}

	/** What a tracer gets: one line per stopped observation, in stop order. */
	static final class Recorder implements ObservationHandler<Observation.Context> {

		private final List<String> stopped = new CopyOnWriteArrayList<>();

		private final List<String> errors = new CopyOnWriteArrayList<>();

		@Override
		public void onError(Observation.Context context) {
			this.errors.add(context.getName() + ": " + context.getError().getMessage());
		}

		@Override
		public void onStop(Observation.Context context) {
			Map<String, String> keys = StreamSupport.stream(context.getLowCardinalityKeyValues().spliterator(), false)
				.collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue, (a, b) -> b, TreeMap::new));
			Observation.ContextView parent = (context.getParentObservation() != null)
					? context.getParentObservation().getContextView() : null;
			String parentName = (parent != null) ? parent.getContextualName() : "-";
			this.stopped
				.add(context.getName() + " '" + context.getContextualName() + "' under '" + parentName + "' " + keys);
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context.getName().startsWith("lifecycle.");
		}

		List<String> stopped() {
			return List.copyOf(this.stopped);
		}

		List<String> errors() {
			return List.copyOf(this.errors);
		}

	}

}
