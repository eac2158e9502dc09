package dev.lifecycle.autoconfigure.web.reactive;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * On WebFlux with a management server of its own ({@code management.server.port}), the
 * probes answer to the end: the Reactor Netty resources that the web server and the
 * management server share stop only after the management server, in the sequence's last
 * steps, so the last scrape is not lost.
 */
class ManagementServerLastTests {

	@Test
	void theManagementServerStillAnswersWhenItsOwnStopBegins() throws Exception {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ManagedApplication.class)
			.web(WebApplicationType.REACTIVE)
			.properties("server.port=0", "management.server.port=0", "spring.application.name=management-last",
					"lifecycle.signals.trap=false", "lifecycle.close-context=false", "lifecycle.pre-stop.enabled=false",
					"lifecycle.run-marker.enabled=false", "lifecycle.drain-delay=200ms",
					"lifecycle.global-shutdown-timeout=20s")
			.run("--spring.autoconfigure.exclude="
					+ "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
					+ "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration,"
					+ "org.springframework.boot.tomcat.autoconfigure.actuate.web.server."
					+ "TomcatReactiveManagementContextAutoConfiguration,"
					+ "org.springframework.boot.jetty.autoconfigure.actuate.web.server."
					+ "JettyReactiveManagementContextAutoConfiguration");
		try {
			ProbeAtManagementStop probe = context.getBean(ProbeAtManagementStop.class);
			probe.port = context.getEnvironment().getRequiredProperty("local.management.port", Integer.class);
			await().atMost(Duration.ofSeconds(60)).until(() -> probe.readiness() == 200);
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
			ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(60)).orElseThrow();
			assertThat(report.clean()).as(report.toString()).isTrue();
			assertThat(probe.answers).as("readiness asked as each step began, after the web server's stop")
				.isNotEmpty()
				.allSatisfy((answer) -> assertThat(answer).endsWith(": 503"));
			assertThat(probe.answers.get(probe.answers.size() - 1)).startsWith("last step 'management server stop'");
		}
		finally {
			context.close();
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ManagedApplication {

		@Bean
		ProbeAtManagementStop probeAtManagementStop(Environment environment) {
			return new ProbeAtManagementStop();
		}

	}

	/**
	 * Asks the management server's readiness as each step after the web server's stop
	 * begins, up to the management server's own stop, on the sequence's own thread, so
	 * the step waits for the answer.
	 */
	static final class ProbeAtManagementStop implements LifecycleListener {

		private final HttpClient http = HttpClient.newHttpClient();

		final List<String> answers = new CopyOnWriteArrayList<>();

		volatile int port;

		private volatile boolean webServerStopped;

		private volatile boolean managementStopping;

		@Override
		public void onStepStarted(String step) {
			if (step.equals("closing step 'web server stop'")) {
				this.webServerStopped = true;
			}
			else if (this.webServerStopped && !this.managementStopping) {
				this.answers.add(step + ": " + readiness());
				this.managementStopping = step.equals("last step 'management server stop'");
			}
		}

		int readiness() {
			try {
				HttpRequest request = HttpRequest
					.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/health/readiness"))
					.timeout(Duration.ofSeconds(30))
					.build();
				return this.http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
			}
			catch (Exception ex) {
				return -1;
			}
		}

	}

}
