package dev.lifecycle.autoconfigure.web.reactive;

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

import dev.lifecycle.autoconfigure.web.InFlightRequest;
import dev.lifecycle.autoconfigure.web.EventStreamClients;
import dev.lifecycle.autoconfigure.web.RawHttp;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The connection-level drain on Reactor Netty (WebFlux): a keep-alive connection reused
 * across the first instant of a shutdown gets {@code Connection: close} and is closed
 * after its response, and an endless server-sent event stream completes cleanly when the
 * drain delay ends.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
public class ReactiveConnectionDrainTests {

	private static ConfigurableApplicationContext start(String... properties) {
		return startOn("reactor-netty", properties);
	}

	private static ConfigurableApplicationContext startOn(String server, String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.application.name=reactive-drain",
				"lifecycle.signals.trap=false", "lifecycle.close-context=false", "lifecycle.pre-stop.enabled=false",
				"lifecycle.run-marker.enabled=false", "lifecycle.drain-delay=1s",
				"lifecycle.global-shutdown-timeout=20s"));
		all.addAll(List.of(properties));
		List<String> excluded = new ArrayList<>();
		if (!server.equals("reactor-netty")) {
			excluded
				.add("org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration");
		}
		if (!server.equals("tomcat")) {
			excluded
				.add("org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration");
		}
		if (!server.equals("jetty")) {
			excluded
				.add("org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration");
		}
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ReactiveApplication.class)
			.web(WebApplicationType.REACTIVE)
			.properties(all.toArray(String[]::new))
			.run("--spring.autoconfigure.exclude=" + String.join(",", excluded));
		assertThat(((WebServerApplicationContext) context).getWebServer().getClass().getSimpleName().toLowerCase())
			.startsWith(server.replace("reactor-", ""));
		return context;
	}

	private static int port(ConfigurableApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	@Test
	void theEndsOfManyOpenEventStreamsAreSpreadOverTheWindowAndEachEndsCleanly() throws Exception {
		try (ConfigurableApplicationContext context = start("lifecycle.streams.end-window=2s",
				"lifecycle.streams.end-rate=10", "lifecycle.streams.sse-retry=2s");
				EventStreamClients clients = new EventStreamClients(port(context), "/events", 30)) {
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			// Spread over two seconds by the schedule; a busy machine can only stretch
			// it.
			assertThat(clients.awaitEndsSpread(Duration.ofSeconds(20))).isGreaterThan(Duration.ofSeconds(1));
			// After the last whole event, a reconnection time between half the setting
			// and all of it.
			assertThat(clients.retries()).allSatisfy((retry) -> assertThat(retry).isBetween(1000L, 2000L));
			assertThat(clients.lines()).allSatisfy((lines) -> assertThat(lines)
				.allMatch((line) -> line.isEmpty() || line.equals("data:tick") || line.matches("retry:\\d+")));
		}
	}

	@Test
	void aKeepAliveConnectionIsClosedAfterItsFirstResponseOnceTheShutdownBegan() throws Exception {
		try (ConfigurableApplicationContext context = start("lifecycle.connection-close=true");
				Socket socket = new Socket("localhost", port(context))) {
			assertThat(((WebServerApplicationContext) context).getWebServer().getClass().getName()).contains("Netty");
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			assertThat(RawHttp.get(socket, "/hello").header("connection")).isNotEqualToIgnoringCase("close");

			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			RawHttp.Response during = RawHttp.get(socket, "/hello");

			assertThat(during.status()).isEqualTo(200);
			assertThat(during.header("connection")).isEqualToIgnoringCase("close");
			assertThat(socket.getInputStream().read()).as("the server closed the connection").isEqualTo(-1);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "reactor-netty", "tomcat", "jetty" })
	void duringTheDrainAResponseOfUnknownLengthIsChunkedWhileOneOfKnownLengthOrWithoutBodyKeepsItsFraming(String server)
			throws Exception {
		try (ConfigurableApplicationContext context = startOn(server, "lifecycle.drain-delay=5s")) {
			int port = port(context);
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			RawHttp.Response unknown = closingExchange(port, "/order");
			assertThat(unknown.status()).isEqualTo(200);
			assertThat(unknown.header("transfer-encoding")).as(unknown.headers().toString())
				.isEqualToIgnoringCase("chunked");
			assertThat(unknown.body()).isEqualTo("{\"id\":\"o-1\"}");

			RawHttp.Response known = closingExchange(port, "/hello");
			assertThat(known.header("content-length")).as(known.headers().toString()).isEqualTo("5");
			assertThat(known.header("transfer-encoding")).isEmpty();
			assertThat(known.body()).isEqualTo("hello");

			RawHttp.Response none = closingExchange(port, "/nothing");
			assertThat(none.status()).isEqualTo(204);
			assertThat(none.header("transfer-encoding")).as("a 204 announces no body").isEmpty();
		}
	}

	/**
	 * One request on a new connection during the drain: it carries Connection: close,
	 * then the server closes.
	 */
	private static RawHttp.Response closingExchange(int port, String path) throws Exception {
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			RawHttp.Response response = RawHttp.get(socket, path);
			assertThat(response.header("connection")).isEqualToIgnoringCase("close");
			assertThat(socket.getInputStream().read()).as("the server closed the connection").isEqualTo(-1);
			return response;
		}
	}

	@Test
	void theReadinessProbesOwn503sDuringTheDrainAreNotFailedRequestsWhileAnApplicationServerErrorIs() throws Exception {
		// An adaptive drain held open by the application's own traffic for as long as the
		// test needs, however slow the machine: it ends once that traffic stops.
		ConfigurableApplicationContext context = start("lifecycle.drain-delay=15s", "lifecycle.drain-quiet-period=3s",
				"lifecycle.drain-minimum=1s", "management.endpoints.web.base-path=/manage",
				"management.endpoint.health.probes.enabled=true");
		LifecycleManager manager = context.getBean(LifecycleManager.class);
		int port = port(context);
		java.util.concurrent.atomic.AtomicBoolean traffic = new java.util.concurrent.atomic.AtomicBoolean(true);
		Thread application = new Thread(() -> {
			while (traffic.get()) {
				try {
					status(port, "/hello");
					Thread.sleep(100);
				}
				catch (Exception ex) {
					return;
				}
			}
		});
		try {
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
			application.start();
			// Readiness turns on the sequence's thread, a moment after the trigger.
			await().atMost(Duration.ofSeconds(10)).until(() -> status(port, "/manage/health/readiness") == 503);
			assertThat(status(port, "/manage/health/readiness")).isEqualTo(503);
			assertThat(status(port, "/broken")).isEqualTo(500);
		}
		finally {
			traffic.set(false);
			application.join();
			context.close();
		}
		assertThat(manager.report().orElseThrow().failedRequests()).as("the application's error only").isEqualTo(1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void onTomcatAndJettyEveryServerErrorAfterTheTriggerIsAFailedRequestAndNoSuccessIs(String server) throws Exception {
		ConfigurableApplicationContext context = startOn(server, "lifecycle.drain-delay=3s");
		LifecycleManager manager = context.getBean(LifecycleManager.class);
		int port = port(context);
		try {
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
			for (int i = 0; i < 4; i++) {
				assertThat(status(port, "/unavailable")).isEqualTo(503);
				assertThat(status(port, "/hello")).isEqualTo(200);
			}
		}
		finally {
			context.close();
		}
		assertThat(manager.report().orElseThrow().failedRequests()).as("the four 503s").isEqualTo(4);
	}

	private static int status(int port, String path) throws Exception {
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			return RawHttp.get(socket, path).status();
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

	@Test
	void aRequestInFlightAsTheShutdownBeginsIsAnsweredWithConnectionClose() throws Exception {
		try (ConfigurableApplicationContext context = start("lifecycle.connection-close=true")) {
			InFlightRequest.assertAnsweredWithConnectionClose(context, port(context));
		}
	}

	/**
	 * Whatever commits the response: a body of several parts, none (a 204 answered in the
	 * chain), or the server's error handler, after the chain, for a handler that failed.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "/in-flight-parts", "/in-flight-nothing", "/in-flight-broken" })
	void aRequestInFlightAsTheShutdownBeginsIsAnsweredWithConnectionCloseWhateverCommitsItsResponse(String path)
			throws Exception {
		try (ConfigurableApplicationContext context = start("lifecycle.connection-close=true")) {
			RawHttp.Response response = InFlightRequest.assertClosedAfter(context, port(context), path);

			assertThat(response.status()).isEqualTo(switch (path) {
				case "/in-flight-parts" -> 200;
				case "/in-flight-nothing" -> 204;
				default -> 500;
			});
		}
	}

	@Test
	void anOfferOfH2cTheServerDoesNotTakeIsAnsweredWithConnectionCloseDuringTheDrain() throws Exception {
		try (ConfigurableApplicationContext context = start("lifecycle.connection-close=true");
				Socket socket = new Socket("localhost", port(context))) {
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			RawHttp.Response response = RawHttp.get(socket, "/hello", "Connection: Upgrade, HTTP2-Settings",
					"Upgrade: h2c", "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA");

			assertThat(response.body()).isEqualTo("hello");
			assertThat(response.header("connection")).isEqualToIgnoringCase("close");
		}
	}

	@Test
	void aSingleResultOfAStreamingTypeIsWrittenWholeAfterTheStreamsEnded() throws Exception {
		try (ConfigurableApplicationContext context = start("lifecycle.streams.end-at=shutdown")) {
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			RawHttp.Response response;
			try (Socket socket = new Socket("localhost", port(context))) {
				socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
				response = RawHttp.get(socket, "/one-order", "Accept: application/x-ndjson");
			}

			assertThat(response.header("content-type")).startsWith("application/x-ndjson");
			assertThat(response.body()).isEqualTo("{\"id\":\"o-1\"}");
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	public static class ReactiveApplication {

		@org.springframework.context.annotation.Bean
		InFlightRequest inFlightRequest(LifecycleManager manager) {
			return new InFlightRequest(manager);
		}

		@RestController
		static class Endpoints {

			private final InFlightRequest inFlight;

			Endpoints(InFlightRequest inFlight) {
				this.inFlight = inFlight;
			}

			@GetMapping("/in-flight")
			reactor.core.publisher.Mono<String> inFlight() {
				return reactor.core.publisher.Mono.fromCallable(this.inFlight::answerOnceTheShutdownBegan)
					.subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic());
			}

			@GetMapping(path = "/in-flight-parts", produces = MediaType.TEXT_PLAIN_VALUE)
			Flux<String> inFlightParts() {
				return inFlight().flux().concatWith(Flux.just("!"));
			}

			@GetMapping("/in-flight-nothing")
			reactor.core.publisher.Mono<org.springframework.http.ResponseEntity<Void>> inFlightNothing() {
				return inFlight().map((answer) -> org.springframework.http.ResponseEntity.noContent().build());
			}

			@GetMapping("/in-flight-broken")
			reactor.core.publisher.Mono<String> inFlightBroken() {
				return inFlight().map((answer) -> {
					throw new IllegalStateException("a dependency is gone");
				});
			}

			/**
			 * One value, of a type that may also stream, negotiated by the client's
			 * Accept header.
			 */
			@GetMapping("/one-order")
			reactor.core.publisher.Mono<java.util.Map<String, String>> oneOrder() {
				return reactor.core.publisher.Mono.delay(Duration.ofMillis(100))
					.thenReturn(java.util.Map.of("id", "o-1"));
			}

			@GetMapping("/hello")
			String hello() {
				return "hello";
			}

			/** Answers later, on another thread than the one that read the request. */
			@GetMapping("/hello-later")
			reactor.core.publisher.Mono<String> helloLater() {
				return reactor.core.publisher.Mono.delay(Duration.ofMillis(5)).thenReturn("hello");
			}

			/**
			 * Reads its body before it answers, as an API that stores what it is sent
			 * does.
			 */
			@org.springframework.web.bind.annotation.PostMapping("/hello")
			reactor.core.publisher.Mono<String> helloWithBody(
					@org.springframework.web.bind.annotation.RequestBody reactor.core.publisher.Mono<String> body) {
				return body.map((read) -> "hello");
			}

			/** A server error answered, not thrown: only its status says it failed. */
			@GetMapping("/unavailable")
			reactor.core.publisher.Mono<org.springframework.http.ResponseEntity<String>> unavailable() {
				return reactor.core.publisher.Mono
					.just(org.springframework.http.ResponseEntity.status(503).body("try another instance"));
			}

			@GetMapping("/broken")
			String broken() {
				throw new IllegalStateException("a dependency is gone");
			}

			@GetMapping("/nothing")
			reactor.core.publisher.Mono<org.springframework.http.ResponseEntity<Void>> nothing() {
				return reactor.core.publisher.Mono.just(org.springframework.http.ResponseEntity.noContent().build());
			}

			/** Two parts: its length is not known when the response starts. */
			@GetMapping(path = "/order", produces = MediaType.TEXT_PLAIN_VALUE)
			Flux<String> order() {
				return Flux.just("{\"id\":", "\"o-1\"}");
			}

			@GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
			Flux<String> events() {
				// A slow reader (a loaded CI machine) skips ticks instead of failing the
				// stream.
				return Flux.interval(Duration.ZERO, Duration.ofMillis(100)).onBackpressureDrop().map((tick) -> "tick");
			}

		}

	}

}
