package dev.lifecycle.autoconfigure.web.servlet;

import java.net.Socket;
import java.time.Duration;
import java.util.List;

import dev.lifecycle.autoconfigure.web.InFlightRequest;
import dev.lifecycle.autoconfigure.web.EventStreamClients;
import dev.lifecycle.autoconfigure.web.RawHttp;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Keep-alive connections drain too: on a real Tomcat, a connection reused across the
 * first instant of a shutdown gets its response with {@code Connection: close} and is
 * then closed by the server, while the request itself is served.
 */
class ConnectionDrainTests {

	private static ConfigurableApplicationContext start(String... properties) {
		return startOn("tomcat", properties);
	}

	private static ConfigurableApplicationContext startOn(String server, String... properties) {
		return ServletDrainApplications.startOn(KeepAliveApplication.class, server, properties);
	}

	private static int port(ConfigurableApplicationContext context) {
		return ServletDrainApplications.port(context);
	}

	@Test
	void byDefaultAKeepAliveConnectionIsClosedAfterItsFirstResponseOnceTheShutdownBegan() throws Exception {
		try (ConfigurableApplicationContext context = start(); Socket socket = new Socket("localhost", port(context))) {
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			RawHttp.Response before = RawHttp.get(socket, "/hello");
			assertThat(before.status()).isEqualTo(200);
			assertThat(before.header("connection")).isNotEqualToIgnoringCase("close");

			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			RawHttp.Response during = RawHttp.get(socket, "/hello");

			assertThat(during.status()).isEqualTo(200);
			assertThat(during.body()).isEqualTo("hello");
			assertThat(during.header("connection")).isEqualToIgnoringCase("close");
			assertThat(socket.getInputStream().read()).as("the server closed the connection").isEqualTo(-1);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void duringTheDrainAResponseOfUnknownLengthIsChunkedWhileOneOfKnownLengthOrWithoutBodyKeepsItsFraming(String server)
			throws Exception {
		try (ConfigurableApplicationContext context = startOn(server)) {
			int port = shutdownBegun(context);

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

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void duringTheDrainErrorPagesBufferedBodiesAndLateLengthsKeepTheFramingTheyHaveWithoutIt(String server)
			throws Exception {
		try (ConfigurableApplicationContext context = startOn(server)) {
			List<RawHttp.Response> before = ServletDrainApplications.assertFramedDuringTheDrainAsBefore(context,
					List.of("/missing", "/map", "/late-length", "/large", "/large-write"));

			assertThat(before.get(0).status()).as("an error page").isEqualTo(404);
		}
	}

	/** Begins the shutdown; the port to reach the application on. */
	private static int shutdownBegun(ConfigurableApplicationContext context) {
		context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
		return port(context);
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
	void requestsAnsweredWithAServerErrorAfterTheTriggerAreCountedInTheReport() throws Exception {
		ConfigurableApplicationContext context = start("lifecycle.drain-delay=1500ms");
		LifecycleManager manager = context.getBean(LifecycleManager.class);
		try {
			int port = port(context);
			assertThat(closingOrNot(port, "/broken")).as("before the trigger: not the shutdown's").isEqualTo(500);
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
			assertThat(closingOrNot(port, "/broken")).isEqualTo(500);
			assertThat(closingOrNot(port, "/unavailable")).isEqualTo(503);
			assertThat(closingOrNot(port, "/hello")).isEqualTo(200);
		}
		finally {
			context.close();
		}
		assertThat(manager.report().orElseThrow().failedRequests()).isEqualTo(2);
	}

	@Test
	void theReadinessProbesOwn503sDuringTheDrainAreNotFailedRequestsWhileAnApplicationServerErrorIs() throws Exception {
		// An adaptive drain held open by the application's own traffic for as long as the
		// test needs, however slow the machine: it ends once that traffic stops.
		ConfigurableApplicationContext context = start("lifecycle.drain-delay=15s", "lifecycle.drain-quiet-period=3s",
				"lifecycle.drain-minimum=1s", "management.endpoints.web.base-path=/manage",
				"management.endpoint.health.probes.enabled=true",
				"management.endpoint.health.probes.add-additional-paths=true");
		LifecycleManager manager = context.getBean(LifecycleManager.class);
		int port = port(context);
		java.util.concurrent.atomic.AtomicBoolean traffic = new java.util.concurrent.atomic.AtomicBoolean(true);
		Thread application = new Thread(() -> {
			while (traffic.get()) {
				try {
					closingOrNot(port, "/hello");
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
			await().atMost(Duration.ofSeconds(10)).until(() -> closingOrNot(port, "/manage/health/readiness") == 503);
			assertThat(closingOrNot(port, "/manage/health/readiness")).isEqualTo(503);
			assertThat(closingOrNot(port, "/readyz")).as("the probe at its additional path").isEqualTo(503);
			assertThat(closingOrNot(port, "/broken")).isEqualTo(500);
		}
		finally {
			traffic.set(false);
			application.join();
			context.close();
		}
		assertThat(manager.report().orElseThrow().failedRequests()).as("the application's error only").isEqualTo(1);
	}

	@Test
	void probesPolledThroughTheDrainDoNotKeepAnAdaptiveDrainGoing() throws Exception {
		try (ConfigurableApplicationContext context = start("lifecycle.drain-delay=15s",
				"lifecycle.drain-quiet-period=300ms", "lifecycle.drain-minimum=500ms",
				"management.endpoint.health.probes.enabled=true")) {
			int port = port(context);
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
			java.util.concurrent.atomic.AtomicBoolean polling = new java.util.concurrent.atomic.AtomicBoolean(true);
			Thread prober = new Thread(() -> {
				while (polling.get()) {
					try {
						closingOrNot(port, "/actuator/health/readiness");
						closingOrNot(port, "/actuator/health/liveness");
						Thread.sleep(50);
					}
					catch (Exception ex) {
						return;
					}
				}
			});
			prober.start();
			try {
				var report = manager.awaitTermination(Duration.ofSeconds(20)).orElseThrow();
				assertThat(report.steps()).filteredOn((step) -> step.name().equals("drain delay"))
					.singleElement()
					.satisfies((step) -> assertThat(step.duration()).as("probes are not traffic")
						.isLessThan(Duration.ofSeconds(8)));
			}
			finally {
				polling.set(false);
				prober.join();
			}
		}
	}

	private static int closingOrNot(int port, String path) throws Exception {
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			return RawHttp.get(socket, path).status();
		}
	}

	@Test
	void withConnectionCloseOffTheConnectionStaysOpenDuringTheDrain() throws Exception {
		try (ConfigurableApplicationContext context = start("lifecycle.connection-close=false");
				Socket socket = new Socket("localhost", port(context))) {
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			assertThat(RawHttp.get(socket, "/hello").header("connection")).isNotEqualToIgnoringCase("close");
			assertThat(RawHttp.get(socket, "/hello").status()).isEqualTo(200);
		}
	}

	@Test
	void anAdaptiveDrainEndsOnceNoRequestHasArrivedForTheQuietPeriod() throws Exception {
		try (ConfigurableApplicationContext context = start("lifecycle.drain-delay=15s",
				"lifecycle.drain-quiet-period=300ms", "lifecycle.drain-minimum=500ms");
				Socket socket = new Socket("localhost", port(context))) {
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
			RawHttp.get(socket, "/hello");

			var report = manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();
			assertThat(report.steps()).filteredOn((step) -> step.name().equals("drain delay"))
				.singleElement()
				.satisfies((step) -> assertThat(step.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(500))
					.isLessThan(Duration.ofSeconds(8)));
		}
	}

	@Test
	void anEndlessServerSentEventStreamEndsCleanlyWhenTheDrainDelayEnds() throws Exception {
		try (ConfigurableApplicationContext context = start("lifecycle.drain-delay=1s")) {
			java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
			var request = java.net.http.HttpRequest
				.newBuilder(java.net.URI.create("http://localhost:" + port(context) + "/events"))
				.build();
			var response = http.send(request, java.net.http.HttpResponse.BodyHandlers.ofLines());
			assertThat(response.statusCode()).isEqualTo(200);
			java.util.Iterator<String> lines = response.body().iterator();
			assertThat(lines.next()).isEqualTo("data:tick");

			long triggered = System.nanoTime();
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			java.util.concurrent.CompletableFuture<Long> ticksAfter = java.util.concurrent.CompletableFuture
				.supplyAsync(() -> {
					long count = 0;
					while (lines.hasNext()) {
						if (lines.next().startsWith("data:")) {
							count++;
						}
					}
					return count;
				});

			// The stream ends by itself, cleanly, once the drain delay (1 s) is over.
			assertThat(ticksAfter.get(10, java.util.concurrent.TimeUnit.SECONDS)).isPositive();
			assertThat(Duration.ofNanos(System.nanoTime() - triggered)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void theEndsOfManyOpenEventStreamsAreSpreadOverTheWindowAndEachEndsCleanly(String server) throws Exception {
		try (ConfigurableApplicationContext context = startOn(server, "lifecycle.drain-delay=1s",
				"lifecycle.streams.end-window=2s", "lifecycle.streams.end-rate=10", "lifecycle.streams.sse-retry=2s");
				EventStreamClients ticking = new EventStreamClients(port(context), "/events", 20);
				EventStreamClients quiet = new EventStreamClients(port(context), "/one-event", 10)) {
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			// Spread over two seconds by the schedule; a busy machine can only stretch
			// it.
			assertThat(ticking.awaitEndsSpread(Duration.ofSeconds(20))).isGreaterThan(Duration.ofSeconds(1));
			quiet.awaitEndsSpread(Duration.ofSeconds(20));
			// The advice goes between two events, never inside one, and a stream with no
			// event being written gets it: between half the setting and all of it.
			assertThat(ticking.lines()).allSatisfy((lines) -> assertThat(lines)
				.allMatch((line) -> line.isEmpty() || line.equals("data:tick") || line.matches("retry:\\d+")));
			assertThat(quiet.retries()).allSatisfy((retry) -> assertThat(retry).isBetween(1000L, 2000L));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void whenTheStreamsEndAnAsynchronousResultStillComingIsServedWhileASilentEventStreamEnds(String server)
			throws Exception {
		try (ConfigurableApplicationContext context = startOn(server, "lifecycle.streams.end-at=shutdown",
				"lifecycle.drain-delay=4s")) {
			int port = shutdownBegun(context);

			for (String path : List.of("/callable", "/deferred", "/future")) {
				RawHttp.Response response = closingExchange(port, path);
				assertThat(response.status()).as(path).isEqualTo(200);
				assertThat(response.body()).as(path + ": " + response.headers()).isEqualTo("{\"id\":\"o-1\"}");
			}

			// A stream that has sent nothing yet ends at once all the same.
			RawHttp.Response silent = closingExchange(port, "/silent-events");
			assertThat(silent.status()).isEqualTo(200);
			assertThat(silent.header("content-type")).startsWith("text/event-stream");
			assertThat(silent.body()).isEmpty();
		}
	}

	// Its request must reach the server within the 1 s drain delay: alone, not beside
	// another fork.
	@Tag("load-sensitive")
	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void anAsynchronousRequestInFlightWhenTheDrainDelayEndsGetsItsResult(String server) throws Exception {
		try (ConfigurableApplicationContext context = startOn(server, "lifecycle.drain-delay=1s")) {
			int port = shutdownBegun(context);

			// Its result comes 2 s later, after the drain delay and the end of the
			// streams.
			RawHttp.Response response = closingExchange(port, "/slow");
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).as(response.headers().toString()).isEqualTo("{\"id\":\"o-1\"}");
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void aRequestInFlightAsTheShutdownBeginsIsAnsweredWithConnectionClose(String server) throws Exception {
		try (ConfigurableApplicationContext context = startOn(server)) {
			InFlightRequest.assertAnsweredWithConnectionClose(context, port(context));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void anOfferOfH2cTheServerDoesNotTakeIsAnsweredWithConnectionCloseDuringTheDrain(String server) throws Exception {
		try (ConfigurableApplicationContext context = startOn(server);
				Socket socket = new Socket("localhost", shutdownBegun(context))) {
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());

			RawHttp.Response response = RawHttp.get(socket, "/hello", "Connection: Upgrade, HTTP2-Settings",
					"Upgrade: h2c", "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA");

			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("hello");
			assertThat(response.header("connection")).isEqualToIgnoringCase("close");
			assertThat(socket.getInputStream().read()).as("the server closed the connection").isEqualTo(-1);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void aResponseAsynchronousTwiceOverIsForgottenOnceItEnds(String server) throws Exception {
		// No request is made during a shutdown here: the close needs no drain delay.
		try (ConfigurableApplicationContext context = startOn(server, "lifecycle.drain-delay=0s")) {
			int port = port(context);
			for (int i = 0; i < 10; i++) {
				try (Socket socket = new Socket("localhost", port)) {
					socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
					assertThat(RawHttp.get(socket, "/nested").body()).isEqualTo("nested");
				}
			}
			ConnectionDrainFilter filter = (ConnectionDrainFilter) context
				.getBean("lifecycleConnectionDrainFilter",
						org.springframework.boot.web.servlet.FilterRegistrationBean.class)
				.getFilter();
			org.awaitility.Awaitility.await()
				.atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(filter.tracked()).as("responses still held").isZero());
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class KeepAliveApplication {

		@org.springframework.context.annotation.Bean
		InFlightRequest inFlightRequest(LifecycleManager manager) {
			return new InFlightRequest(manager);
		}

		@RestController
		static class HelloController {

			private final java.util.concurrent.ScheduledExecutorService ticker = java.util.concurrent.Executors
				.newSingleThreadScheduledExecutor();

			private final InFlightRequest inFlight;

			HelloController(InFlightRequest inFlight) {
				this.inFlight = inFlight;
			}

			@GetMapping("/in-flight")
			String inFlight() {
				return this.inFlight.answerOnceTheShutdownBegan();
			}

			@GetMapping("/hello")
			String hello() {
				return "hello";
			}

			@GetMapping("/broken")
			String broken() {
				throw new IllegalStateException("a dependency is gone");
			}

			@GetMapping("/unavailable")
			org.springframework.http.ResponseEntity<String> unavailable() {
				return org.springframework.http.ResponseEntity.status(503).body("try elsewhere");
			}

			@GetMapping("/nothing")
			org.springframework.http.ResponseEntity<Void> nothing() {
				return org.springframework.http.ResponseEntity.noContent().build();
			}

			/** Buffered whole by the server, which then knows its length. */
			@GetMapping("/map")
			java.util.Map<String, String> map() {
				return java.util.Map.of("id", "o-1");
			}

			/**
			 * Its length is set after its stream was taken, before anything is written.
			 */
			@GetMapping("/late-length")
			void lateLength(jakarta.servlet.http.HttpServletResponse response) throws java.io.IOException {
				var out = response.getOutputStream();
				response.setContentLength(5);
				out.write("hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
			}

			/** Larger than the server's buffer, of a length no one announces. */
			@GetMapping("/large")
			void large(jakarta.servlet.http.HttpServletResponse response) throws java.io.IOException {
				response.setContentType("text/plain");
				var writer = response.getWriter();
				for (int i = 0; i < 4096; i++) {
					writer.write("0123456789abcde\n");
				}
			}

			/**
			 * One write of more than Jetty writes without aggregating, less than either
			 * server's buffer.
			 */
			@GetMapping("/large-write")
			void largeWrite(jakarta.servlet.http.HttpServletResponse response) throws java.io.IOException {
				response.setContentType("application/octet-stream");
				byte[] body = new byte[20_000];
				java.util.Arrays.fill(body, (byte) 'x');
				response.getOutputStream().write(body);
			}

			/**
			 * Written in two parts with a flush between: its length is not known when the
			 * response starts.
			 */
			@GetMapping("/order")
			void order(jakarta.servlet.http.HttpServletResponse response) throws java.io.IOException {
				response.setContentType("application/json");
				response.getWriter().write("{\"id\":");
				response.flushBuffer();
				response.getWriter().write("\"o-1\"}");
			}

			@GetMapping("/callable")
			java.util.concurrent.Callable<java.util.Map<String, String>> callable() {
				return () -> {
					Thread.sleep(100);
					return java.util.Map.of("id", "o-1");
				};
			}

			@GetMapping("/slow")
			java.util.concurrent.Callable<java.util.Map<String, String>> slow() {
				return () -> {
					Thread.sleep(2000);
					return java.util.Map.of("id", "o-1");
				};
			}

			@GetMapping("/deferred")
			org.springframework.web.context.request.async.DeferredResult<java.util.Map<String, String>> deferred() {
				var result = new org.springframework.web.context.request.async.DeferredResult<java.util.Map<String, String>>();
				this.ticker.schedule(() -> result.setResult(java.util.Map.of("id", "o-1")), 100,
						java.util.concurrent.TimeUnit.MILLISECONDS);
				return result;
			}

			@GetMapping("/future")
			java.util.concurrent.CompletableFuture<java.util.Map<String, String>> future() {
				return java.util.concurrent.CompletableFuture.supplyAsync(() -> java.util.Map.of("id", "o-1"),
						java.util.concurrent.CompletableFuture.delayedExecutor(100,
								java.util.concurrent.TimeUnit.MILLISECONDS));
			}

			/**
			 * A result that is itself asynchronous: two asynchronous cycles of one
			 * request.
			 */
			@GetMapping("/nested")
			org.springframework.web.context.request.async.DeferredResult<org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody> nested() {
				var result = new org.springframework.web.context.request.async.DeferredResult<org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody>();
				this.ticker.schedule(
						() -> result.setResult(
								(out) -> out.write("nested".getBytes(java.nio.charset.StandardCharsets.US_ASCII))),
						10, java.util.concurrent.TimeUnit.MILLISECONDS);
				return result;
			}

			/** A stream that sent one event and then waits. */
			@GetMapping("/one-event")
			org.springframework.web.servlet.mvc.method.annotation.SseEmitter oneEvent() throws java.io.IOException {
				var emitter = new org.springframework.web.servlet.mvc.method.annotation.SseEmitter(0L);
				emitter.send("hello");
				return emitter;
			}

			/** A stream with no event yet. */
			@GetMapping("/silent-events")
			org.springframework.web.servlet.mvc.method.annotation.SseEmitter silentEvents() {
				return new org.springframework.web.servlet.mvc.method.annotation.SseEmitter(0L);
			}

			/** Never completes on its own: a tick every 100 ms until sending fails. */
			@GetMapping("/events")
			org.springframework.web.servlet.mvc.method.annotation.SseEmitter events() {
				return ticking(new org.springframework.web.servlet.mvc.method.annotation.SseEmitter(0L), "tick", 0);
			}

			private <E extends org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter> E ticking(
					E emitter, String payload, long firstAfterMillis) {
				java.util.concurrent.atomic.AtomicReference<java.util.concurrent.ScheduledFuture<?>> task = new java.util.concurrent.atomic.AtomicReference<>();
				task.set(this.ticker.scheduleAtFixedRate(() -> {
					try {
						emitter.send(payload);
					}
					catch (Exception ex) {
						task.get().cancel(false);
					}
				}, firstAfterMillis, 100, java.util.concurrent.TimeUnit.MILLISECONDS));
				return emitter;
			}

		}

	}

}
