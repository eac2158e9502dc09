package dev.lifecycle.autoconfigure;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import dev.lifecycle.autoconfigure.web.DrainingApplication;
import dev.lifecycle.core.ComponentState;
import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real web server during a real drain: the coordinator runs the sequence before the web
 * server's graceful shutdown, so the server keeps answering while components drain.
 *
 * <p>
 * This module cannot use lifecycle-test (which depends on it), so the test sets the
 * defaults that lifecycle-test would give it: no signal trap, no context close, no
 * pre-stop file or marker.
 */
@SpringBootTest(classes = DrainingApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.application.name=drain-test",
				"management.endpoints.web.exposure.include=health,prometheus,lifecycle", "lifecycle.signals.trap=false",
				"lifecycle.close-context=false", "lifecycle.pre-stop.enabled=false",
				"lifecycle.run-marker.enabled=false", "lifecycle.halt-after-ceiling=false" })
@AutoConfigureMetrics
@DirtiesContext
class GracefulShutdownIntegrationTests {

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	private int port;

	@Autowired
	private ConfigurableApplicationContext context;

	@Autowired
	private DrainingApplication application;

	@Autowired
	private LifecycleManager manager;

	@Test
	void lifecycleEndpointIsReadOnlyOverHttp() throws Exception {
		HttpRequest post = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/lifecycle"))
			.POST(HttpRequest.BodyPublishers.noBody())
			.timeout(Duration.ofSeconds(10))
			.build();
		assertThat(this.http.send(post, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(405);
		assertThat(this.manager.isShutdownInitiated()).isFalse();
	}

	@Test
	void serverKeepsServingWhileComponentsDrainHighestPhaseFirst() throws Exception {
		assertThat(get("/actuator/health/readiness").statusCode()).isEqualTo(200);

		this.manager.handle("fast").orElseThrow().requestShutdown();
		// The slow component (phase 10) is draining and holds the sequence until
		// released.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.application.slowDraining.getCount() == 0);

		assertThat(get("/actuator/health/readiness").statusCode()).isEqualTo(503);
		assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);
		HttpResponse<String> prometheus = get("/actuator/prometheus");
		assertThat(prometheus.statusCode()).isEqualTo(200);
		assertThat(prometheus.body())
			.containsPattern("lifecycle_shutdown_initiated_total\\{[^}]*trigger_reason=\"requested\"[^}]*} 1\\.0")
			.contains("service_name=\"drain-test\"");
		HttpResponse<String> endpoint = get("/actuator/lifecycle");
		assertThat(endpoint.statusCode()).isEqualTo(200);
		assertThat(endpoint.body()).contains("\"status\":\"SHUTTING_DOWN\"")
			.contains("\"reason\":\"requested\"")
			.contains("\"name\":\"slow\"");
		HttpResponse<String> hello = get("/hello");
		assertThat(hello.statusCode()).isEqualTo(200);
		assertThat(hello.body()).isEqualTo("hello");
		assertThat(this.manager.components()).filteredOn((c) -> c.name().equals("fast"))
			.singleElement()
			.satisfies((fast) -> assertThat(fast.state()).isEqualTo(ComponentState.RUNNING));

		this.application.releaseSlow.countDown();
		ShutdownReport report = this.manager.awaitTermination(Duration.ofSeconds(30)).orElseThrow();
		assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.REQUESTED);
		assertThat(report.trigger().component()).isEqualTo("fast");
		assertThat(report.clean()).isTrue();
		assertThat(this.application.stops).containsExactly("slow", "fast");
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.application.exitCodes.isEmpty());
		assertThat(this.application.exitCodes).containsExactly(ExitCodes.CLEAN);
		// With close-context=false the context stays open for the test framework to close
		// (@DirtiesContext).
		assertThat(this.context.isActive()).isTrue();
	}

	private HttpResponse<String> get(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
