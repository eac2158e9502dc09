package dev.lifecycle.autoconfigure.metrics;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lifecycle.autoconfigure.component.LifecycleCoordinator;
import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.Tier;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scrapes a real Prometheus registry after a real shutdown to check the exposition format
 * of the five series.
 */
class MicrometerLifecycleMetricsTests {

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	@Test
	void aShutdownScrapesAsExactlyTheFiveLifecycleSeriesTaggedWithTheServiceName() throws Exception {
		LifecycleManager manager = LifecycleManager.builder("orders")
			.listener(new MicrometerLifecycleMetrics(this.registry, "orders"))
			.build();
		manager.registerActive("worker", ComponentOptions.defaults().withGracefulShutdown(Duration.ofSeconds(5)),
				(handle) -> {
					handle.requestShutdown();
					handle.awaitShutdown();
				});
		manager.registerPassive("metrics", ComponentOptions.defaults().withTier(Tier.OBSERVABILITY), (handle) -> {
		});
		manager.start();
		ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();
		assertThat(report.clean()).isTrue();
		String scrape = this.registry.scrape();
		assertThat(seriesNames(scrape)).containsExactlyInAnyOrder("lifecycle_shutdown_initiated_total",
				"lifecycle_component_shutdown_duration_seconds_bucket",
				"lifecycle_component_shutdown_duration_seconds_count",
				"lifecycle_component_shutdown_duration_seconds_sum",
				// Micrometer's timer always publishes its maximum beside the histogram.
				"lifecycle_component_shutdown_duration_seconds_max", "lifecycle_component_shutdown_result_total",
				"lifecycle_shutdown_completed_total", "lifecycle_component_healthy");
		assertThat(scrape).contains("# TYPE lifecycle_component_shutdown_duration_seconds histogram")
			.contains("lifecycle_shutdown_initiated_total{service_name=\"orders\",trigger_component=\"worker\","
					+ "trigger_reason=\"requested\"} 1.0")
			.contains("lifecycle_component_shutdown_duration_seconds_bucket{component=\"worker\",result=\"completed\","
					+ "service_name=\"orders\",le=\"0.05\"}")
			.contains("lifecycle_component_shutdown_duration_seconds_count{component=\"worker\",result=\"completed\","
					+ "service_name=\"orders\"} 1")
			.contains("lifecycle_component_shutdown_result_total{component=\"metrics\",result=\"completed\","
					+ "service_name=\"orders\"} 1.0")
			.contains("lifecycle_shutdown_completed_total{clean=\"true\",service_name=\"orders\"} 1.0")
			.contains("lifecycle_shutdown_completed_total{clean=\"false\",service_name=\"orders\"} 0.0")
			.contains("lifecycle_component_healthy{component=\"worker\",service_name=\"orders\"} 0.0");
		assertThat(lines(scrape,
				"lifecycle_component_shutdown_duration_seconds_bucket{component=\"worker\",result=\"completed\""))
			.isEqualTo(13);
		assertThat(scrape.lines().filter((line) -> line.startsWith("lifecycle")))
			.allMatch((line) -> line.contains("service_name=\"orders\""));
	}

	@Test
	void outcomesRecordedAfterTheRegistryClosedAreStillScraped() throws Exception {
		MicrometerLifecycleMetrics metrics = new MicrometerLifecycleMetrics(this.registry, "orders");
		LifecycleManager manager = LifecycleManager.builder("orders").listener(metrics).build();
		manager.registerPassive("worker", ComponentOptions.defaults(), (handle) -> {
		});
		manager.start();
		// What happens on ContextClosedEvent, before the lifecycle stops: Lifecycle's
		// listener (first by order) registers the shutdown series, then Spring Boot
		// closes the registry.
		metrics.onApplicationEvent(new org.springframework.context.event.ContextClosedEvent(
				new org.springframework.context.support.GenericApplicationContext()));
		this.registry.close();

		manager.triggerShutdown(dev.lifecycle.core.ShutdownReason.SIGNAL,
				dev.lifecycle.core.TriggerSource.CONTEXT_CLOSE.label());
		manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();

		assertThat(this.registry.scrape())
			.contains("lifecycle_shutdown_initiated_total{service_name=\"orders\",trigger_component=\"context-close\","
					+ "trigger_reason=\"signal\"} 1.0")
			.contains("lifecycle_component_shutdown_result_total{component=\"worker\",result=\"completed\","
					+ "service_name=\"orders\"} 1.0")
			.contains("lifecycle_component_shutdown_result_total{component=\"worker\",result=\"timeout\","
					+ "service_name=\"orders\"} 0.0")
			.contains("lifecycle_component_shutdown_duration_seconds_count{component=\"worker\",result=\"completed\","
					+ "service_name=\"orders\"} 1")
			.contains("lifecycle_shutdown_completed_total{clean=\"true\",service_name=\"orders\"} 1.0");
	}

	@Test
	void theContextsCloseWaitsForTheShutdownSeriesTheShutdownsFirstInstantIsRegisteringSoNoneIsLost() throws Exception {
		MicrometerLifecycleMetrics metrics = new MicrometerLifecycleMetrics(this.registry, "orders");
		LifecycleManager manager = LifecycleManager.builder("orders").listener(metrics).build();
		manager.registerPassive("worker", ComponentOptions.defaults(), (handle) -> {
		});
		manager.registerPassive("pipeline", ComponentOptions.defaults(), (handle) -> {
		});
		// The shutdown's first instant (on the sequence's thread) is held inside its
		// first
		// registration of a shutdown series, as a busy machine may hold it.
		CountDownLatch registering = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		this.registry.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				if (id.getName().equals("lifecycle.component.shutdown.duration") && registering.getCount() > 0) {
					registering.countDown();
					try {
						release.await(10, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
				return id;
			}
		});
		Thread firstInstant = new Thread(metrics::registerShutdownMeters);
		firstInstant.start();
		assertThat(registering.await(10, TimeUnit.SECONDS)).isTrue();

		// Meanwhile the context starts closing on another thread: Spring Boot closes the
		// registry as soon as Lifecycle's listener returns.
		Thread close = new Thread(() -> {
			metrics.onApplicationEvent(new org.springframework.context.event.ContextClosedEvent(
					new org.springframework.context.support.GenericApplicationContext()));
			this.registry.close();
		});
		close.start();
		Awaitility.await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(close::isAlive);
		release.countDown();
		firstInstant.join(10_000);
		close.join(10_000);

		assertThat(this.registry.scrape())
			.contains("lifecycle_component_shutdown_result_total{component=\"worker\",result=\"timeout\","
					+ "service_name=\"orders\"} 0.0")
			.contains("lifecycle_component_shutdown_result_total{component=\"pipeline\",result=\"timeout\","
					+ "service_name=\"orders\"} 0.0");
		manager.triggerShutdown(dev.lifecycle.core.ShutdownReason.SIGNAL, "test");
		manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();
	}

	@Test
	void healthGaugeFollowsTheComponent() {
		LifecycleManager manager = LifecycleManager.builder("orders")
			.listener(new MicrometerLifecycleMetrics(this.registry, "orders"))
			.build();
		manager.register("consumer", ComponentOptions.defaults());
		assertThat(this.registry.get("lifecycle.component.healthy").tag("component", "consumer").gauge().value())
			.isEqualTo(1.0);
	}

	@Test
	void anUncleanPreviousRunCountsAsAnInitiatedShutdownThatNeverCompleted(@TempDir Path directory) throws Exception {
		Path marker = directory.resolve("orders.running");
		Files.writeString(marker, "pid=1 started=2026-11-23T10:00:00Z\n");
		LifecycleManager manager = LifecycleManager.builder("orders")
			.listener(new MicrometerLifecycleMetrics(this.registry, "orders"))
			.runMarker(marker)
			.build();
		manager.start();
		assertThat(this.registry.scrape())
			.contains("lifecycle_shutdown_initiated_total{service_name=\"orders\","
					+ "trigger_component=\"previous-run\",trigger_reason=\"unclean\"} 1.0")
			.contains("lifecycle_shutdown_completed_total{clean=\"false\",service_name=\"orders\"} 0.0")
			.contains("lifecycle_shutdown_completed_total{clean=\"true\",service_name=\"orders\"} 0.0");
	}

	@Test
	void atIdleAComponentHasOnlyItsHealthGaugeAndTheInitiatedCountersItCouldTrigger() {
		LifecycleManager manager = LifecycleManager.builder("orders")
			.listener(new MicrometerLifecycleMetrics(this.registry, "orders"))
			.build();
		manager.register("consumer", ComponentOptions.defaults().withLivenessDeadline(Duration.ofSeconds(30)));
		manager.register("store", ComponentOptions.defaults());
		manager.register("metrics-server", ComponentOptions.defaults().withTier(Tier.OBSERVABILITY));
		manager.register("backup-target",
				ComponentOptions.defaults().withTier(Tier.ADVISORY).withLivenessDeadline(Duration.ofSeconds(30)));

		String scrape = this.registry.scrape();

		assertThat(series(scrape, "component=\"consumer\"", "trigger_component=\"consumer\"")).isEqualTo(6);
		assertThat(series(scrape, "component=\"store\"", "trigger_component=\"store\"")).isEqualTo(5);
		assertThat(series(scrape, "component=\"metrics-server\"", "trigger_component=\"metrics-server\"")).isEqualTo(4);
		assertThat(series(scrape, "component=\"backup-target\"", "trigger_component=\"backup-target\"")).isEqualTo(3);
		assertThat(scrape).doesNotContain("lifecycle_component_shutdown_duration_seconds")
			.doesNotContain("lifecycle_component_shutdown_result_total");
	}

	@Test
	void withTheHistogramOffADurationIsOnlyCountSumAndMax() throws Exception {
		LifecycleManager manager = LifecycleManager.builder("orders")
			.listener(new MicrometerLifecycleMetrics(this.registry, "orders", false))
			.build();
		manager.registerPassive("worker", ComponentOptions.defaults(), (handle) -> {
		});
		manager.start();
		manager.triggerShutdown(dev.lifecycle.core.ShutdownReason.SIGNAL, "signal");
		manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();

		String scrape = this.registry.scrape();
		assertThat(scrape).doesNotContain("lifecycle_component_shutdown_duration_seconds_bucket")
			.contains("lifecycle_component_shutdown_duration_seconds_count{component=\"worker\",result=\"completed\","
					+ "service_name=\"orders\"} 1");
	}

	private static long series(String scrape, String... labels) {
		return scrape.lines()
			.filter((line) -> line.startsWith("lifecycle_"))
			.filter((line) -> java.util.Arrays.stream(labels).anyMatch(line::contains))
			.count();
	}

	private static Set<String> seriesNames(String scrape) {
		Set<String> names = new TreeSet<>();
		Matcher matcher = Pattern.compile("^(lifecycle_[a-z_]+)[{ ]", Pattern.MULTILINE).matcher(scrape);
		while (matcher.find()) {
			names.add(matcher.group(1));
		}
		return names;
	}

	private static long lines(String scrape, String prefix) {
		return scrape.lines().filter((line) -> line.startsWith(prefix)).count();
	}

}
