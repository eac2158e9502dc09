package dev.lifecycle.autoconfigure.metrics.pushgateway;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpServer;
import dev.lifecycle.autoconfigure.TestRunners;
import dev.lifecycle.autoconfigure.component.FailedStartTests;
import dev.lifecycle.autoconfigure.process.BeanDestructionTracker;
import dev.lifecycle.autoconfigure.process.BeforeCeilingHalt;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.exporter.pushgateway.Format;
import io.prometheus.metrics.exporter.pushgateway.PushGateway;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pushes to a real HTTP server standing in for the Pushgateway and reads what arrived:
 * the Prometheus text a Pushgateway would store for the process's group.
 */
@ExtendWith(OutputCaptureExtension.class)
class PushgatewayShutdownPublisherTests {

	private static final Pattern COMPLETED_CLEAN = Pattern
		.compile("(?m)^lifecycle_shutdown_completed_total\\{clean=\"true\",service_name=\"orders\"} 1(\\.0)?$");

	private static final Pattern INITIATED_REQUESTED = Pattern
		.compile("(?m)^lifecycle_shutdown_initiated_total\\{service_name=\"orders\",trigger_component=\"test\","
				+ "trigger_reason=\"requested\"} 1(\\.0)?$");

	private final List<Push> pushes = new CopyOnWriteArrayList<>();

	private final CountDownLatch release = new CountDownLatch(1);

	private volatile boolean hang;

	private final HttpServer gateway = startGateway();

	private final PrometheusRegistry prometheusRegistry = new PrometheusRegistry();

	@AfterEach
	void stopGateway() {
		this.release.countDown();
		this.gateway.stop(0);
	}

	private ApplicationContextRunner runner() {
		return runnerWithoutGroupingKey()
			.withPropertyValues("management.prometheus.metrics.export.pushgateway.grouping-key.instance=pod-1");
	}

	private ApplicationContextRunner runnerWithoutGroupingKey() {
		return TestRunners.lifecycle()
			.withConfiguration(AutoConfigurations.of(LifecyclePushgatewayAutoConfiguration.class))
			.withBean(PrometheusRegistry.class, () -> this.prometheusRegistry)
			.withBean(MeterRegistry.class,
					() -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, this.prometheusRegistry, Clock.SYSTEM))
			.withPropertyValues("management.prometheus.metrics.export.pushgateway.enabled=true",
					"management.prometheus.metrics.export.pushgateway.address=localhost:"
							+ this.gateway.getAddress().getPort(),
					"management.prometheus.metrics.export.pushgateway.format=text");
	}

	@Test
	void aCleanShutdownPushesItsStartAndThenItsCompletionToTheGroupOfTheProcess(CapturedOutput output) {
		// The drain delay keeps the sequence from completing before the start's push is
		// made.
		runner().withPropertyValues("lifecycle.drain-delay=3s").run((context) -> {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
			ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();
			assertThat(report.clean()).isTrue();
			// The final push is made before the listeners after it hear of the report.
			assertThat(this.pushes).isNotEmpty().allSatisfy((push) -> {
				assertThat(push.method()).isEqualTo("POST");
				assertThat(push.path()).isEqualTo("/metrics/job/orders/instance/pod-1");
			});
			assertThat(this.pushes.get(0).body()).containsPattern(INITIATED_REQUESTED)
				.doesNotContainPattern(COMPLETED_CLEAN);
			assertThat(this.pushes.get(this.pushes.size() - 1).body()).containsPattern(INITIATED_REQUESTED)
				.containsPattern(COMPLETED_CLEAN);
		});
		assertThat(output).doesNotContain("does not name the process").doesNotContain("could not push");
	}

	@Test
	void aFailedStartPushesItsStartFailedTriggerAndAnUncleanCompletion() {
		runner()
			.withBean("licenceCheck", FailedStartTests.FailingLifecycle.class, FailedStartTests.FailingLifecycle::new)
			.run((context) -> assertThat(context).hasFailed());

		// The failed refresh waited for the report, and the final push is made before the
		// report.
		assertThat(this.pushes).isNotEmpty();
		assertThat(this.pushes.get(this.pushes.size() - 1).body()).containsPattern(
				"(?m)^lifecycle_shutdown_initiated_total\\{service_name=\"orders\",trigger_component=\"licenceCheck\","
						+ "trigger_reason=\"start-failed\"} 1(\\.0)?$")
			.containsPattern(
					"(?m)^lifecycle_shutdown_completed_total\\{clean=\"false\",service_name=\"orders\"} 1(\\.0)?$")
			.doesNotContainPattern(COMPLETED_CLEAN);
	}

	@Test
	void aGatewayThatNeverAnswersDelaysTheShutdownByTheBoundOnlyAndIsLoggedOnce(CapturedOutput output) {
		this.hang = true;
		runner().run((context) -> {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			long start = System.nanoTime();
			manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
			ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(30)).orElseThrow();
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			assertThat(report.clean()).isTrue();
			assertThat(report.exitCode()).isZero();
			assertThat(took).isLessThan(PushgatewayShutdownPublisher.FINAL_PUSH_BOUND.plusSeconds(3));
		});
		// The pushes time out on the publisher's own thread, possibly after the context
		// has closed.
		Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> warnings(output) >= 1);
		Awaitility.await()
			.during(Duration.ofSeconds(3))
			.atMost(Duration.ofSeconds(10))
			.until(() -> warnings(output) == 1);
	}

	private static int warnings(CapturedOutput output) {
		return output.getOut().split("could not push the shutdown's metrics", -1).length - 1;
	}

	@Test
	void anUnreachableGatewayNeitherFailsNorHoldsTheShutdown(CapturedOutput output) throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		runner().withPropertyValues("management.prometheus.metrics.export.pushgateway.address=localhost:" + closedPort)
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
				ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();
				assertThat(report.clean()).isTrue();
			});
		Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> output.getOut()
				.contains("Lifecycle: could not push the shutdown's metrics to the Pushgateway"));
	}

	@Test
	void aGroupingKeyWithoutTheInstanceIsWarnedAboutAtStart(CapturedOutput output) {
		runnerWithoutGroupingKey()
			.withPropertyValues("management.prometheus.metrics.export.pushgateway.grouping-key.zone=a")
			.run((context) -> assertThat(context).hasSingleBean(PushgatewayShutdownPublisher.class));
		assertThat(output).contains("does not name the process").contains("grouping-key.instance=${HOSTNAME}");
	}

	@Test
	void nothingIsPushedUnlessSpringBootsPushgatewayIsEnabled() {
		runner().withPropertyValues("management.prometheus.metrics.export.pushgateway.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(PushgatewayShutdownPublisher.class));
	}

	@Test
	void pushingCanBeSwitchedOff() {
		runner().withPropertyValues("lifecycle.metrics.push-on-shutdown=false")
			.run((context) -> assertThat(context).doesNotHaveBean(PushgatewayShutdownPublisher.class));
	}

	@Test
	void backsOffWithoutThePushgatewayClient() {
		runner().withClassLoader(new FilteredClassLoader(PushGateway.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(PushgatewayShutdownPublisher.class));
	}

	@Test
	void aUserBeanNamedLikeOursReplacesIt() {
		dev.lifecycle.core.LifecycleListener own = new dev.lifecycle.core.LifecycleListener() {
		};
		runner()
			.withBean("lifecyclePushgatewayShutdownPublisher", dev.lifecycle.core.LifecycleListener.class, () -> own)
			.run((context) -> assertThat(context).doesNotHaveBean(PushgatewayShutdownPublisher.class)
				.getBean("lifecyclePushgatewayShutdownPublisher")
				.isSameAs(own));
	}

	@Test
	void theLastMomentBeforeTheCeilingsHaltPushes() {
		PushgatewayShutdownPublisher publisher = new PushgatewayShutdownPublisher(gateway(), Duration.ofMillis(50));
		LifecycleManager manager = LifecycleManager.builder("orders")
			.globalShutdownTimeout(Duration.ofMillis(50))
			.build();
		// What runs before the halt is done when this returns: the halt comes next.
		new BeforeCeilingHalt(manager, new BeanDestructionTracker(), List.of(publisher)).run();
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> this.pushes.size() == 1);
		assertThat(this.pushes).hasSize(1);
	}

	private PushGateway gateway() {
		return PushGateway.builder()
			.address("localhost:" + this.gateway.getAddress().getPort())
			.format(Format.PROMETHEUS_TEXT)
			.job("orders")
			.groupingKey("instance", "pod-1")
			.registry(this.prometheusRegistry)
			.build();
	}

	private HttpServer startGateway() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
			server.createContext("/", (exchange) -> {
				try (InputStream body = exchange.getRequestBody()) {
					String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
					if (this.hang) {
						this.release.await(30, TimeUnit.SECONDS);
					}
					this.pushes.add(new Push(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), text));
					exchange.sendResponseHeaders(200, -1);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				finally {
					exchange.close();
				}
			});
			server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
			server.start();
			return server;
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private record Push(String method, String path, String body) {
	}

}
