package dev.lifecycle.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The connection-level drain on Reactor Netty (WebFlux): a keep-alive connection reused across
 * the first instant of a shutdown gets {@code Connection: close} and is closed after its response,
 * and an endless server-sent event stream completes cleanly when the drain delay ends.
 */
class ReactiveConnectionDrainTests {

	private static ConfigurableApplicationContext start(String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.application.name=reactive-drain",
				"lifecycle.signals.trap=false", "lifecycle.close-context=false", "lifecycle.pre-stop.enabled=false",
				"lifecycle.run-marker.enabled=false", "lifecycle.drain-delay=1s", "lifecycle.global-shutdown-timeout=20s"));
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(ReactiveApplication.class).web(WebApplicationType.REACTIVE)
			.properties(all.toArray(String[]::new))
			.run();
	}

	private static int port(ConfigurableApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	@Test
	void aKeepAliveConnectionIsClosedAfterItsFirstResponseOnceTheShutdownBegan() throws Exception {
		try (ConfigurableApplicationContext context = start("lifecycle.connection-close=true");
				Socket socket = new Socket("localhost", port(context))) {
			assertThat(((WebServerApplicationContext) context).getWebServer().getClass().getName())
				.contains("Netty");
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			assertThat(RawHttp.get(socket, "/hello").header("connection")).isNotEqualToIgnoringCase("close");

			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			RawHttp.Response during = RawHttp.get(socket, "/hello");

			assertThat(during.status()).isEqualTo(200);
			assertThat(during.header("connection")).isEqualToIgnoringCase("close");
			assertThat(socket.getInputStream().read()).as("the server closed the connection").isEqualTo(-1);
		}
	}

	@Test
	void anEndlessEventStreamCompletesWhenTheDrainDelayEnds() throws Exception {
		try (ConfigurableApplicationContext context = start()) {
			HttpResponse<java.util.stream.Stream<String>> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port(context) + "/events")).build(),
						HttpResponse.BodyHandlers.ofLines());
			Iterator<String> lines = response.body().iterator();
			assertThat(lines.next()).isEqualTo("data:tick");

			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			CompletableFuture<Long> ticks = CompletableFuture.supplyAsync(() -> {
				long count = 0;
				while (lines.hasNext()) {
					if (lines.next().startsWith("data:")) {
						count++;
					}
				}
				return count;
			});

			assertThat(ticks.get(10, TimeUnit.SECONDS)).isPositive();
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ReactiveApplication {

		@RestController
		static class Endpoints {

			@GetMapping("/hello")
			String hello() {
				return "hello";
			}

			@GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
			Flux<String> events() {
				// A slow reader (a loaded CI machine) skips ticks instead of failing the stream.
				return Flux.interval(Duration.ZERO, Duration.ofMillis(100)).onBackpressureDrop().map((tick) -> "tick");
			}

		}

	}

}
