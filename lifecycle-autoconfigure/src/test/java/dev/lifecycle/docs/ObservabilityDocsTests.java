package dev.lifecycle.docs;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The observability page's note on Spring Boot's health components: the {@code lifecycle}
 * contributor shows over HTTP only once
 * {@code management.endpoint.health.show-components} allows it, while the probes answer
 * either way.
 */
class ObservabilityDocsTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void theLifecycleContributorIsHiddenUntilShowComponentsAllowsIt() throws Exception {
		try (ConfigurableApplicationContext context = DocsApplications.run(WebApplicationType.SERVLET,
				OrderConsumer.class)) {
			String base = base(context);
			assertThat(get(base + "/actuator/health/lifecycle").statusCode()).isEqualTo(404);
			assertThat(get(base + "/actuator/health").body()).doesNotContain("lifecycle");
			assertThat(get(base + "/actuator/health/readiness").statusCode()).isEqualTo(200);
		}
		try (ConfigurableApplicationContext context = DocsApplications.run(WebApplicationType.SERVLET,
				List.of("management.endpoint.health.show-components=always"), OrderConsumer.class)) {
			String base = base(context);
			HttpResponse<String> lifecycle = get(base + "/actuator/health/lifecycle");
			assertThat(lifecycle.statusCode()).isEqualTo(200);
			assertThat(lifecycle.body()).contains("\"status\":\"UP\"");
			assertThat(get(base + "/actuator/health").body()).contains("\"lifecycle\"");
		}
	}

	private static String base(ConfigurableApplicationContext context) {
		return "http://localhost:" + context.getEnvironment().getProperty("local.server.port");
	}

	private HttpResponse<String> get(String url) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
	}

}
