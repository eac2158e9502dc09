package dev.lifecycle.autoconfigure.actuate;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.autoconfigure.TestRunners;
import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentState;
import dev.lifecycle.core.Cut;
import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.HealthStatus;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ReportCodec;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.Tier;
import dev.lifecycle.core.UnfinishedWork;
import dev.lifecycle.spring.ManagedComponent;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class LifecycleHealthAndEndpointTests {

	private final ApplicationContextRunner runner = TestRunners.lifecycle()
		.withUserConfiguration(ComponentsConfiguration.class)
		.withPropertyValues("spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=lifecycle",
				"lifecycle.health-poll-interval=50ms");

	@Test
	void thePreviousShutdownIsDrawnAsAnSvgTimelineWithOneBarPerComponent(
			@org.junit.jupiter.api.io.TempDir java.nio.file.Path directory) throws Exception {
		java.nio.file.Path marker = directory.resolve("lifecycle-orders.running");
		LifecycleManager previous = LifecycleManager.builder("orders").runMarker(marker).build();
		previous.registerPassive("pipeline", dev.lifecycle.core.ComponentOptions.defaults().withPhase(10), (handle) -> {
		});
		previous.registerPassive("stuck-client",
				dev.lifecycle.core.ComponentOptions.defaults().withGracefulShutdown(Duration.ofMillis(100)),
				(handle) -> Thread.sleep(5_000));
		previous.start();
		previous.triggerShutdown(dev.lifecycle.core.ShutdownReason.SIGNAL, "signal");
		previous.awaitTermination();

		this.runner.withPropertyValues("lifecycle.run-marker.enabled=true", "lifecycle.run-marker.path=" + marker)
			.run((context) -> {
				String svg = context.getBean(LifecycleEndpoint.class).timeline("previous", "timeline");
				org.w3c.dom.Document document = javax.xml.parsers.DocumentBuilderFactory.newInstance()
					.newDocumentBuilder()
					.parse(new java.io.ByteArrayInputStream(svg.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
				assertThat(document.getDocumentElement().getNodeName()).isEqualTo("svg");
				assertThat(svg).contains("orders: shutdown (signal), not clean, exit 75")
					.contains("pipeline (phase 10, standard)")
					.contains("stuck-client (phase 0, standard)")
					.contains("fill=\"#43a047\"")
					.contains("fill=\"#fb8c00\"")
					.contains("standard drain, phase 10");
				assertThat(context.getBean(LifecycleEndpoint.class).timeline("current", "timeline")).isNull();
			});
	}

	@Test
	void theEndpointShowsWhatThePreviousRunLeft(@org.junit.jupiter.api.io.TempDir java.nio.file.Path directory)
			throws Exception {
		java.nio.file.Path marker = directory.resolve("lifecycle-orders.running");
		java.nio.file.Files.writeString(marker, "pid=4242 started=2026-11-23T10:00:00Z\n");
		this.runner.withPropertyValues("lifecycle.run-marker.enabled=true", "lifecycle.run-marker.path=" + marker)
			.run((context) -> {
				LifecycleEndpoint.PreviousRunDescriptor previous = context.getBean(LifecycleEndpoint.class)
					.lifecycle()
					.previousRun();
				assertThat(previous.unclean()).isTrue();
				assertThat(previous.summary()).isEqualTo("previous run (pid=4242 started=2026-11-23T10:00:00Z) "
						+ "ended without a shutdown: SIGKILL, OOM kill or crash");
				assertThat(previous.report()).isNull();
			});
	}

	@Test
	@SuppressWarnings("unchecked")
	void healthIsUpWithPerComponentDetail() {
		this.runner.run((context) -> {
			LifecycleHealthIndicator indicator = context.getBean(LifecycleHealthIndicator.class);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> componentDetail(indicator.health(), "worker").get("health") == HealthStatus.HEALTHY);
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			Map<String, Object> worker = componentDetail(health, "worker");
			assertThat(worker).containsEntry("state", ComponentState.RUNNING)
				.containsEntry("tier", Tier.STANDARD)
				.containsEntry("phase", 3)
				.containsEntry("healthy", true)
				.containsKey("heartbeatAge");
		});
	}

	@Test
	void aStalledStandardComponentTakesHealthOutOfService() {
		this.runner.run((context) -> {
			LifecycleHealthIndicator indicator = context.getBean(LifecycleHealthIndicator.class);
			Worker worker = context.getBean(Worker.class);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> componentDetail(indicator.health(), "worker").get("health") == HealthStatus.HEALTHY);
			worker.stall = true;
			// A stall of a standard component triggers the shutdown at once:
			// OUT_OF_SERVICE wins.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> indicator.health().getStatus().equals(Status.OUT_OF_SERVICE));
		});
	}

	@Test
	void healthIsOutOfServiceOnceShutdownBegins() {
		this.runner.run((context) -> {
			LifecycleHealthIndicator indicator = context.getBean(LifecycleHealthIndicator.class);
			context.getBean(Worker.class).stopOnShutdown = false;
			context.getBean(LifecycleManager.class).handle("worker").orElseThrow().requestShutdown();
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
			assertThat(health.getDetails()).containsEntry("shutdown",
					Map.of("reason", "requested", "component", "worker"));
			context.getBean(Worker.class).stopOnShutdown = true;
		});
	}

	@Test
	void endpointDescribesComponentsAndTheShutdown() {
		this.runner.run((context) -> {
			LifecycleEndpoint endpoint = context.getBean(LifecycleEndpoint.class);
			LifecycleEndpoint.LifecycleDescriptor running = endpoint.lifecycle();
			assertThat(running.serviceName()).isEqualTo("orders");
			assertThat(running.status()).isEqualTo("RUNNING");
			assertThat(running.shutdown()).isNull();
			assertThat(running.components()).extracting(LifecycleEndpoint.ComponentDescriptor::name)
				.containsExactly("worker");
			assertThat(endpoint.component("worker").phase()).isEqualTo(3);
			assertThat(endpoint.component("missing")).isNull();
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			manager.handle("worker").orElseThrow().requestShutdown();
			manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();
			LifecycleEndpoint.LifecycleDescriptor ended = endpoint.lifecycle();
			assertThat(ended.status()).isEqualTo("TERMINATED");
			ShutdownRecord shutdown = record(ended.shutdown());
			assertThat(shutdown.trigger().reason()).isEqualTo(ShutdownReason.REQUESTED);
			assertThat(shutdown.trigger().component()).isEqualTo("worker");
			assertThat(shutdown.state()).isEqualTo(ShutdownRecord.State.COMPLETED);
			assertThat(shutdown.exitCode()).isZero();
		});
	}

	@Test
	void theEndpointsReportShowsTheCallsAStopCutAndTheWorkLeftForALaterRun() {
		this.runner.run((context) -> {
			LifecycleEndpoint endpoint = context.getBean(LifecycleEndpoint.class);
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			ComponentHandle worker = manager.handle("worker").orElseThrow();
			worker.reportCut("orders.Orders/Export (unary, running for 2004 ms)");
			worker.unfinishedWork(List.of("job 'import' execution 7: STOPPED"));
			worker.requestShutdown();
			manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();

			ShutdownRecord report = record(endpoint.lifecycle().shutdown());
			assertThat(report.clean()).isFalse();
			assertThat(report.exitCode()).isEqualTo(ExitCodes.INCOMPLETE);
			assertThat(report.unfinishedWork())
				.containsExactly(new UnfinishedWork("worker", "job 'import' execution 7: STOPPED"));
			assertThat(report.components()).singleElement()
				.satisfies((component) -> assertThat(component.cut())
					.containsExactly(new Cut("orders.Orders/Export (unary, running for 2004 ms)", false)));
		});
	}

	@Test
	void theEndpointShowsTheShutdownUnderWayUnderTheFieldsOfTheReportFile() throws Exception {
		CountDownLatch stopping = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		LifecycleManager manager = LifecycleManager.builder("orders").build();
		manager.addShutdownHandler("hold", Duration.ofSeconds(30), () -> {
			stopping.countDown();
			release.await();
		});
		manager.start();
		LifecycleEndpoint endpoint = new LifecycleEndpoint(manager);
		manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
		assertThat(stopping.await(30, TimeUnit.SECONDS)).isTrue();
		try {
			Map<String, Object> fields = endpoint.lifecycle().shutdown();
			assertThat(fields).containsEntry("schema", ShutdownRecord.SCHEMA);
			ShutdownRecord underWay = record(fields);
			assertThat(underWay.state()).isEqualTo(ShutdownRecord.State.IN_PROGRESS);
			assertThat(underWay.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.SIGNAL, "test", ""));
			assertThat(underWay.exitCode()).isNull();
		}
		finally {
			release.countDown();
		}
		manager.awaitTermination(Duration.ofSeconds(30)).orElseThrow();
		assertThat(record(endpoint.lifecycle().shutdown()).state()).isEqualTo(ShutdownRecord.State.COMPLETED);
	}

	/** The endpoint's fields, read back through the codec that lays out the file. */
	private static ShutdownRecord record(Map<String, Object> fields) {
		ReportCodec.Result result = ReportCodec.read(fields);
		assertThat(result).isInstanceOf(ReportCodec.Read.class);
		return ((ReportCodec.Read) result).record();
	}

	@Test
	void endpointHasOnlyReadOperations() {
		assertThat(Arrays.stream(LifecycleEndpoint.class.getDeclaredMethods())
			.filter((Method method) -> method.isAnnotationPresent(WriteOperation.class)
					|| method.isAnnotationPresent(DeleteOperation.class)))
			.isEmpty();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> componentDetail(Health health, String name) {
		Map<String, Object> components = (Map<String, Object>) health.getDetails().get("components");
		return (Map<String, Object>) components.get(name);
	}

	@ManagedComponent(value = "worker", phase = 3, livenessDeadline = "1s", gracefulShutdown = "5s")
	static class Worker implements ActiveComponent {

		volatile boolean stall;

		volatile boolean stopOnShutdown = true;

		@Override
		public void run(ComponentHandle handle) throws Exception {
			while (!handle.isShuttingDown() || !this.stopOnShutdown) {
				if (this.stall) {
					handle.reportUnhealthy();
				}
				else {
					handle.reportHealthy();
				}
				handle.awaitShutdown(Duration.ofMillis(20));
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ComponentsConfiguration {

		@Bean
		Worker worker() {
			return new Worker();
		}

	}

}
