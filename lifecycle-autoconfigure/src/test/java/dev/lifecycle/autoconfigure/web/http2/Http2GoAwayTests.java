package dev.lifecycle.autoconfigure.web.http2;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.autoconfigure.web.H2Client;
import dev.lifecycle.autoconfigure.web.RawH2Client;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.http2.frames.Frame;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * HTTP/2 connections drain with GOAWAY on every server, over cleartext HTTP/2 and over
 * TLS (h2 negotiated by ALPN) with a real HTTP/2 client: a connection open when the
 * shutdown begins gets a graceful GOAWAY at once, a stream in flight then is still served
 * in full, and a connection opened during the drain gets its GOAWAY with its first
 * request, which is served in full too.
 */
class Http2GoAwayTests {

	@TempDir
	static Path certificates;

	private static ConfigurableApplicationContext start(String server, String... properties) {
		List<String> arguments = new ArrayList<>(List.of(properties));
		SpringApplicationBuilder builder = new SpringApplicationBuilder(Http2Application.class);
		if (server.equals("jetty")) {
			arguments.add("--spring.autoconfigure.exclude="
					+ "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration,"
					+ "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
					+ "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration");
		}
		else if (server.equals("reactor-netty")) {
			builder.web(org.springframework.boot.WebApplicationType.REACTIVE);
		}
		ConfigurableApplicationContext context = builder
			.properties("server.port=0", "server.http2.enabled=true", "spring.application.name=h2",
					"lifecycle.signals.trap=false", "lifecycle.close-context=false", "lifecycle.pre-stop.enabled=false",
					"lifecycle.run-marker.enabled=false", "lifecycle.halt-after-ceiling=false",
					"lifecycle.drain-delay=5s", "lifecycle.global-shutdown-timeout=20s")
			.run(arguments.toArray(String[]::new));
		assertThat(((WebServerApplicationContext) context).getWebServer().getClass().getSimpleName().toLowerCase())
			.startsWith(server.replace("reactor-", ""));
		return context;
	}

	private static int port(ConfigurableApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty", "reactor-netty" })
	void aRequestDuringTheDrainIsServedInFullAndItsConnectionGetsAGracefulGoAway(String server) throws Exception {
		try (ConfigurableApplicationContext context = start(server)) {
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			try (H2Client client = H2Client.cleartext(port(context))) {
				H2Client.Response during = client.get("/hello");

				assertThat(during.status()).isEqualTo(200);
				assertThat(during.body()).isEqualTo("hello");
				await().atMost(Duration.ofSeconds(4)).untilAsserted(() -> assertThat(client.goAways()).isNotEmpty());
				assertThat(client.goAways()).allSatisfy((goAway) -> {
					assertThat(goAway.getError()).isEqualTo(ErrorCode.NO_ERROR.code);
					assertThat(goAway.getLastStreamId()).isGreaterThanOrEqualTo(during.streamId());
				});
			}
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty", "reactor-netty" })
	void everyConnectionOpenedDuringTheDrainGetsItsGoAwayWithItsFirstRequest(String server) throws Exception {
		// The drain lasts while requests come and ends 3 s after the last: a GOAWAY that
		// only the stopping server would send never arrives within the 2 s each
		// connection waits.
		try (ConfigurableApplicationContext context = start(server, "--lifecycle.drain-delay=15s",
				"--lifecycle.drain-quiet-period=3s", "--lifecycle.drain-minimum=1s")) {
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			for (int i = 0; i < 60; i++) {
				try (H2Client client = H2Client.cleartext(port(context))) {
					assertThat(client.get("/hello").body()).isEqualTo("hello");
					await().atMost(Duration.ofSeconds(2))
						.untilAsserted(
								() -> assertThat(client.goAways()).as("the GOAWAY of a new connection").isNotEmpty());
				}
			}
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty", "reactor-netty" })
	void openConnectionsGetAGracefulGoAwayAtTheFirstInstantAndTheirStreamsInFlightAreServedInFull(String server)
			throws Exception {
		// The GOAWAYs are awaited for 2 s, within the 3 s drain delay: the stopping
		// server's would come later.
		try (ConfigurableApplicationContext context = start(server, "--lifecycle.drain-delay=3s");
				H2Client idle = H2Client.cleartext(port(context));
				H2Client client = H2Client.cleartext(port(context))) {
			H2Client.Response before = idle.get("/hello");
			assertThat(before.status()).isEqualTo(200);
			assertThat(before.body()).isEqualTo("hello");
			Http2Application.Hello hello = context.getBean(Http2Application.Hello.class);
			CompletableFuture<H2Client.Response> slow = CompletableFuture.supplyAsync(() -> {
				try {
					return client.get("/slow");
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			await().atMost(Duration.ofSeconds(5)).until(() -> hello.slowStarted.get() == 1);

			assertThat(idle.goAways()).as("no GOAWAY before the shutdown").isEmpty();
			assertThat(client.goAways()).as("no GOAWAY before the shutdown").isEmpty();

			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(client.goAways()).isNotEmpty());
			assertThat(slow).as("still in flight when the GOAWAY arrived").isNotDone();
			await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(idle.goAways()).isNotEmpty());
			assertThat(idle.goAways()).allSatisfy((goAway) -> {
				assertThat(goAway.getError()).isEqualTo(ErrorCode.NO_ERROR.code);
				assertThat(goAway.getLastStreamId()).isGreaterThanOrEqualTo(before.streamId());
			});

			H2Client.Response response = slow.get(10, TimeUnit.SECONDS);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("slow");
			assertThat(client.goAways()).allSatisfy((goAway) -> {
				assertThat(goAway.getError()).isEqualTo(ErrorCode.NO_ERROR.code);
				assertThat(goAway.getLastStreamId()).isGreaterThanOrEqualTo(response.streamId());
			});
		}
	}

	/**
	 * RFC 9113 §6.8, read on the wire: a GOAWAY with the highest stream id (2^31-1) and
	 * {@code NO_ERROR} at the first instant of the shutdown, then a final GOAWAY naming
	 * the last stream the client opened; the stream in flight is served in full, and a
	 * stream opened after the final GOAWAY is not.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty", "reactor-netty" })
	void openConnectionsGetTheTwoPhaseGoAwayAndTheirStreamInFlightIsServedInFull(String server) throws Exception {
		try (ConfigurableApplicationContext context = start(server);
				RawH2Client client = RawH2Client.cleartext(port(context))) {
			assertThat(client.get("/hello").response().get(10, TimeUnit.SECONDS).body()).isEqualTo("hello");
			Http2Application.Hello hello = context.getBean(Http2Application.Hello.class);
			// 3 s, so the GOAWAY comes while it is in flight even on a busy machine.
			RawH2Client.Request slow = client.get("/slower");
			await().atMost(Duration.ofSeconds(5)).until(() -> hello.slowStarted.get() == 1);
			assertThat(client.goAways()).as("no GOAWAY before the shutdown").isEmpty();

			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(client.goAways()).isNotEmpty());
			assertThat(slow.response()).as("still in flight when the first GOAWAY arrived").isNotDone();
			assertGraceful(client.goAways().get(0), client);

			RawH2Client.Response response = slow.response().get(10, TimeUnit.SECONDS);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("slower");
			assertTwoPhaseAndANewStreamNotServed(server, client, slow.streamId());
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty", "reactor-netty" })
	void aConnectionOpenedDuringTheDrainGetsTheTwoPhaseGoAwayWithItsFirstRequestWhichIsServedInFull(String server)
			throws Exception {
		try (ConfigurableApplicationContext context = start(server);
				RawH2Client before = RawH2Client.cleartext(port(context))) {
			assertThat(before.get("/hello").response().get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			// The drain has begun once the connections open at the trigger got their
			// GOAWAY
			// (the sequence's thread sends it, a moment after the trigger).
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(before.goAways()).isNotEmpty());
			try (RawH2Client client = RawH2Client.cleartext(port(context))) {
				RawH2Client.Request during = client.get("/hello");
				RawH2Client.Response response = during.response().get(10, TimeUnit.SECONDS);
				assertThat(response.status()).isEqualTo(200);
				assertThat(response.body()).isEqualTo("hello");
				await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(client.goAways()).isNotEmpty());
				assertGraceful(client.goAways().get(0), client);
				assertTwoPhaseAndANewStreamNotServed(server, client, during.streamId());
			}
		}
	}

	/**
	 * Between the two GOAWAYs Reactor Netty still accepts streams, so the ones a client
	 * opened before reading the first GOAWAY are served; a client that does not answer
	 * the PING gets the final GOAWAY at the bound, naming the last of them.
	 */
	@Test
	@Tag("load-sensitive")
	void onReactorNettyAStreamOpenedBeforeThePingIsAnsweredIsServedAndTheFinalGoAwayComesAtTheBound() throws Exception {
		try (ConfigurableApplicationContext context = start("reactor-netty");
				RawH2Client client = RawH2Client.withoutPingAcks(port(context))) {
			assertThat(client.get("/hello").response().get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(client.pings()).isNotEmpty());
			long firstPhase = System.nanoTime();
			assertThat(client.goAways()).singleElement().satisfies((goAway) -> assertGraceful(goAway, client));

			RawH2Client.Request meantime = client.get("/hello");
			RawH2Client.Response response = meantime.response().get(10, TimeUnit.SECONDS);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("hello");
			await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> assertThat(client.goAways()).hasSize(2));
			assertThat(Duration.ofNanos(System.nanoTime() - firstPhase))
				.as("the final GOAWAY waits for the PING's acknowledgement up to the bound")
				.isGreaterThanOrEqualTo(NettyHttp2Drain.FINAL_GO_AWAY_BOUND.minusMillis(200));
			assertTwoPhaseAndANewStreamNotServed("reactor-netty", client, meantime.streamId());
		}
	}

	private static void assertGraceful(GoAwayFrame goAway, RawH2Client client) {
		assertThat(goAway.getLastStreamId()).as("the first GOAWAY's last stream id in %s", client.describe())
			.isEqualTo(Integer.MAX_VALUE);
		assertThat(goAway.getError()).as("the first GOAWAY's error code").isEqualTo(ErrorCode.NO_ERROR.code);
	}

	/**
	 * The two GOAWAYs, the graceful one, then the final one naming the last stream the
	 * client opened; then a stream the client opens is not served. Tomcat sends its final
	 * GOAWAY only when the client opens a new stream once a round trip has passed since
	 * the first ({@code Http2UpgradeHandler.checkPauseState}), so on Tomcat that stream
	 * comes first.
	 */
	private static void assertTwoPhaseAndANewStreamNotServed(String server, RawH2Client client, int lastStreamId)
			throws Exception {
		RawH2Client.Request after = server.equals("tomcat") ? client.get("/hello") : null;
		await().atMost(Duration.ofSeconds(3))
			.untilAsserted(() -> assertThat(client.goAways()).as(client.describe()).hasSize(2));
		assertGraceful(client.goAways().get(0), client);
		GoAwayFrame last = client.goAways().get(1);
		assertThat(last.getLastStreamId()).as("the final GOAWAY's last stream id in %s", client.describe())
			.isEqualTo(lastStreamId);
		assertThat(last.getError()).as("the final GOAWAY's error code").isEqualTo(ErrorCode.NO_ERROR.code);
		if (server.equals("reactor-netty")) {
			List<Frame> frames = client.frames();
			int first = frames.indexOf(client.goAways().get(0));
			int ping = frames.indexOf(client.pings().get(client.pings().size() - 1));
			assertThat(ping).as("a PING between the two GOAWAYs in %s", client.describe())
				.isBetween(first, frames.indexOf(last));
		}
		assertNotServed(server, (after != null) ? after : client.get("/hello"), client);
	}

	/**
	 * A stream opened after the final GOAWAY is not processed: Reactor Netty refuses it
	 * ({@code REFUSED_STREAM}); Tomcat and Jetty ignore it, as RFC 9113 §6.8 allows.
	 */
	private static void assertNotServed(String server, RawH2Client.Request after, RawH2Client client) throws Exception {
		if (server.equals("reactor-netty")) {
			await().atMost(Duration.ofSeconds(2))
				.untilAsserted(() -> assertThat(after.response()).isCompletedExceptionally());
			assertThat(client.describe()).contains("RST_STREAM(" + after.streamId() + ", 7)");
		}
		else {
			await().during(Duration.ofMillis(500))
				.atMost(Duration.ofSeconds(5))
				.untilAsserted(
						() -> assertThat(after.response().isDone() && !after.response().isCompletedExceptionally())
							.as("a stream after the final GOAWAY is not served: %s", client.describe())
							.isFalse());
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty", "reactor-netty" })
	@Tag("load-sensitive")
	void overTlsConnectionsOpenAtTheFirstInstantAndOpenedDuringTheDrainGetAGracefulGoAwayAndEveryStreamIsServed(
			String server) throws Exception {
		try (ConfigurableApplicationContext context = start(server, tls());
				H2Client idle = H2Client.tls(port(context));
				H2Client client = H2Client.tls(port(context))) {
			H2Client.Response before = idle.get("/hello");
			assertThat(before.status()).isEqualTo(200);
			Http2Application.Hello hello = context.getBean(Http2Application.Hello.class);
			CompletableFuture<H2Client.Response> slow = CompletableFuture.supplyAsync(() -> {
				try {
					return client.get("/slow");
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			await().atMost(Duration.ofSeconds(5)).until(() -> hello.slowStarted.get() == 1);
			assertThat(idle.goAways()).as("no GOAWAY before the shutdown").isEmpty();

			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(client.goAways()).isNotEmpty());
			assertThat(slow).as("still in flight when the GOAWAY arrived").isNotDone();
			await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(idle.goAways()).isNotEmpty());
			H2Client.Response response = slow.get(10, TimeUnit.SECONDS);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("slow");
			assertThat(idle.goAways())
				.allSatisfy((goAway) -> assertThat(goAway.getError()).isEqualTo(ErrorCode.NO_ERROR.code));
			assertThat(client.goAways()).allSatisfy((goAway) -> {
				assertThat(goAway.getError()).isEqualTo(ErrorCode.NO_ERROR.code);
				assertThat(goAway.getLastStreamId()).isGreaterThanOrEqualTo(response.streamId());
			});

			try (H2Client during = H2Client.tls(port(context))) {
				H2Client.Response answered = during.get("/hello");
				assertThat(answered.status()).isEqualTo(200);
				assertThat(answered.body()).isEqualTo("hello");
				await().atMost(Duration.ofSeconds(4)).untilAsserted(() -> assertThat(during.goAways()).isNotEmpty());
				assertThat(during.goAways()).allSatisfy((goAway) -> {
					assertThat(goAway.getError()).isEqualTo(ErrorCode.NO_ERROR.code);
					assertThat(goAway.getLastStreamId()).isGreaterThanOrEqualTo(answered.streamId());
				});
			}
		}
	}

	/**
	 * Server properties for TLS with a self-signed certificate made for this test class.
	 */
	private static String[] tls() throws Exception {
		Path store = certificates.resolve("server.p12");
		if (Files.notExists(store)) {
			Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
					"-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
					"CN=localhost", "-ext", "SAN=dns:localhost", "-validity", "2", "-storetype", "PKCS12", "-keystore",
					store.toString(), "-storepass", "secret", "-keypass", "secret")
				.redirectErrorStream(true)
				.start();
			String printed = new String(keytool.getInputStream().readAllBytes());
			assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
			assertThat(keytool.exitValue()).as(printed).isZero();
		}
		return new String[] { "--server.ssl.key-store=file:" + store, "--server.ssl.key-store-password=secret",
				"--server.ssl.key-store-type=PKCS12" };
	}

	/**
	 * Before Java 24 the JDK's HttpClient fails the requests in flight on a connection
	 * when a GOAWAY arrives, whatever its last stream id (JDK-8335181); CI runs the
	 * jdk25-tagged tests on Java 25.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty", "reactor-netty" })
	@EnabledForJreRange(min = JRE.JAVA_24)
	@Tag("jdk25")
	void theJdkHttpClientOpensANewConnectionAfterTheGoAway(String server) throws Exception {
		try (ConfigurableApplicationContext context = start(server)) {
			HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port(context) + "/port"))
				.build();
			HttpResponse<String> first = http.send(request, HttpResponse.BodyHandlers.ofString());
			assertThat(first.version()).as("h2c, upgraded from HTTP/1.1").isEqualTo(HttpClient.Version.HTTP_2);
			assertThat(http.send(request, HttpResponse.BodyHandlers.ofString()).body())
				.as("the connection is reused before the shutdown")
				.isEqualTo(first.body());

			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			await().atMost(Duration.ofSeconds(4)).untilAsserted(() -> {
				HttpResponse<String> during = http.send(request, HttpResponse.BodyHandlers.ofString());
				assertThat(during.statusCode()).isEqualTo(200);
				assertThat(during.body()).as("the client port of a new connection").isNotEqualTo(first.body());
			});
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty", "reactor-netty" })
	void withGoAwayOffTheConnectionStaysOpenDuringTheDrain(String server) throws Exception {
		try (ConfigurableApplicationContext context = start(server, "--lifecycle.go-away=false",
				"--lifecycle.drain-delay=2s"); H2Client client = H2Client.cleartext(port(context))) {
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			assertThat(client.get("/hello").status()).isEqualTo(200);
			assertThat(client.get("/hello").status()).isEqualTo(200);
			assertThat(client.goAways()).isEmpty();
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Http2Application {

		/** The client's port, which tells one connection from another. */
		@RestController
		@ConditionalOnWebApplication(type = Type.SERVLET)
		static class ServletPort {

			@GetMapping("/port")
			String port(jakarta.servlet.http.HttpServletRequest request) {
				return String.valueOf(request.getRemotePort());
			}

		}

		/** The client's port, which tells one connection from another. */
		@RestController
		@ConditionalOnWebApplication(type = Type.REACTIVE)
		static class ReactivePort {

			@GetMapping("/port")
			String port(org.springframework.web.server.ServerWebExchange exchange) {
				return String.valueOf(exchange.getRequest().getRemoteAddress().getPort());
			}

		}

		@RestController
		static class Hello {

			final AtomicInteger slowStarted = new AtomicInteger();

			@GetMapping("/hello")
			String hello() {
				return "hello";
			}

			/**
			 * Answers after 1 s without holding a thread (servlet async or WebFlux
			 * alike).
			 */
			@GetMapping("/slow")
			Mono<String> slow() {
				this.slowStarted.incrementAndGet();
				return Mono.delay(Duration.ofSeconds(1)).map((tick) -> "slow");
			}

			/** Answers after 3 s, without holding a thread. */
			@GetMapping("/slower")
			Mono<String> slower() {
				this.slowStarted.incrementAndGet();
				return Mono.delay(Duration.ofSeconds(3)).map((tick) -> "slower");
			}

		}

	}

}
