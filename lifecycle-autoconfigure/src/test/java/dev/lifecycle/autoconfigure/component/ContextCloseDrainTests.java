package dev.lifecycle.autoconfigure.component;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import dev.lifecycle.autoconfigure.web.DrainingApplication;
import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The production path, outside the test framework: the context itself closes, and the
 * coordinator, in a phase above the web server's graceful shutdown, holds that close
 * until the drain has finished, so the server answers throughout and stops only
 * afterwards.
 */
@ExtendWith(OutputCaptureExtension.class)
class ContextCloseDrainTests {

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private ConfigurableApplicationContext context;

	private DrainingApplication application;

	private int port;

	@AfterEach
	void close() {
		if (this.context != null) {
			this.application.releaseSlow.countDown();
			this.context.close();
		}
	}

	@Test
	void componentTriggeredShutdownClosesTheContextOnlyAfterTheDrainWhileTheServerKeepsServing() throws Exception {
		start();
		DrainingApplication application = this.context.getBean(DrainingApplication.class);
		LifecycleManager manager = this.context.getBean(LifecycleManager.class);
		manager.handle("fast").orElseThrow().requestShutdown();
		await().atMost(Duration.ofSeconds(10)).until(() -> application.slowDraining.getCount() == 0);
		// Lifecycle has begun closing the context; the coordinator holds the close at its
		// phase.
		assertThat(this.context.isClosed()).isTrue();
		assertThat(this.context.isActive()).isTrue();
		assertThat(get("/actuator/health/readiness").statusCode()).isEqualTo(503);
		assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);
		HttpResponse<String> prometheus = get("/actuator/prometheus");
		assertThat(prometheus.statusCode()).isEqualTo(200);
		assertThat(prometheus.body())
			.containsPattern("lifecycle_shutdown_initiated_total\\{[^}]*trigger_reason=\"requested\"[^}]*} 1\\.0");
		assertThat(get("/hello").body()).isEqualTo("hello");
		application.releaseSlow.countDown();
		await().atMost(Duration.ofSeconds(30)).until(() -> !application.exitCodes.isEmpty());
		assertThat(application.exitCodes).containsExactly(ExitCodes.CLEAN);
		assertThat(this.context.isActive()).isFalse();
		assertThat(application.stops).containsExactly("slow", "fast");
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> get("/hello"));
	}

	@Test
	void plainContextCloseRunsTheWholeSequenceBeforeTheServerStops(CapturedOutput output) throws Exception {
		start();
		DrainingApplication application = this.context.getBean(DrainingApplication.class);
		LifecycleManager manager = this.context.getBean(LifecycleManager.class);
		Thread closer = new Thread(this.context::close, "test-close");
		closer.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> application.slowDraining.getCount() == 0);
		assertThat(get("/actuator/health/readiness").statusCode()).isEqualTo(503);
		assertThat(get("/hello").body()).isEqualTo("hello");
		// Spring Boot has closed the meter registry by now (ContextClosedEvent comes
		// first): the trigger's counter must have been registered before, or the scrape
		// would miss it.
		assertThat(get("/actuator/prometheus").body()).containsPattern(
				"lifecycle_shutdown_initiated_total\\{[^}]*trigger_component=\"context-close\"[^}]*} 1\\.0");
		application.releaseSlow.countDown();
		closer.join(Duration.ofSeconds(30).toMillis());
		ShutdownReport report = manager.report().orElseThrow();
		assertThat(report.trigger().component()).isEqualTo("context-close");
		assertThat(report.exitCode()).isZero();
		// The web server's graceful shutdown and stop ran inside the sequence, before the
		// report.
		assertThat(output).containsSubsequence("Lifecycle: running closing step 'web server graceful shutdown'",
				"Lifecycle: closing step 'web server graceful shutdown' finished",
				"Lifecycle: closing step 'web server stop' finished", "Lifecycle: shutdown complete (clean=true");
		// Whoever closed the context owns the process: Lifecycle does not exit it.
		assertThat(application.exitCodes).isEmpty();
	}

	private void start() {
		this.context = new SpringApplicationBuilder(DrainingApplication.class).run("--server.port=0",
				"--spring.application.name=drain-test", "--management.endpoints.web.exposure.include=health,prometheus",
				"--lifecycle.signals.trap=false", "--lifecycle.pre-stop.enabled=false",
				"--lifecycle.run-marker.enabled=false", "--lifecycle.halt-after-ceiling=false");
		this.port = this.context.getEnvironment().getProperty("local.server.port", Integer.class);
		this.application = this.context.getBean(DrainingApplication.class);
	}

	private HttpResponse<String> get(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
