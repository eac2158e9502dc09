package dev.lifecycle.autoconfigure.web.servlet;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.autoconfigure.web.InFlightRequest;
import dev.lifecycle.autoconfigure.web.RawHttp;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the connection drain does to a servlet response, on real Tomcat and Jetty servers:
 * nothing while no shutdown is under way, also to code that uses the servlet API
 * directly; during the drain, {@code Connection: close} on every way a response can be
 * committed, with the framing the response has without the drain.
 */
class ServletResponseDrainTests {

	private static ConfigurableApplicationContext startOn(String server, String... properties) {
		return ServletDrainApplications.startOn(ResponsesApplication.class, server, properties);
	}

	private static int port(ConfigurableApplicationContext context) {
		return ServletDrainApplications.port(context);
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void withNoShutdownUnderWayAServletSeesTheServersOwnResponse(String server) throws Exception {
		List<String> paths = List.of("/raw/print-utf8", "/raw/reset-writer", "/raw/reset-exclusive");
		Map<String, String> unwrapped;
		// No request is made during a shutdown here: the closes need no drain delay.
		try (ConfigurableApplicationContext context = startOn(server, "lifecycle.connection-close=false",
				"lifecycle.drain-delay=0s")) {
			unwrapped = fetch(port(context), paths);
		}
		try (ConfigurableApplicationContext context = startOn(server, "lifecycle.drain-delay=0s")) {
			Map<String, String> drained = fetch(port(context), paths);

			assertThat(drained).isEqualTo(unwrapped);
		}
		if (server.equals("jetty")) {
			String utf8 = HexFormat.of().formatHex("h\u00e9llo \u20ac".getBytes(StandardCharsets.UTF_8));
			assertThat(unwrapped.get("/raw/reset-writer")).as("Jetty's writer after a reset writes its new encoding")
				.endsWith(utf8);
			assertThat(unwrapped.get("/raw/print-utf8")).as("Jetty prints in the response's encoding").endsWith(utf8);
		}
		assertThat(unwrapped.get("/raw/reset-exclusive")).as("the stream taken after a reset excludes the writer")
			.endsWith(HexFormat.of().formatHex("IllegalStateException".getBytes(StandardCharsets.US_ASCII)));
	}

	/** Status, content type and body bytes (in hex) of each path. */
	private static Map<String, String> fetch(int port, List<String> paths) throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		Map<String, String> seen = new LinkedHashMap<>();
		for (String path : paths) {
			HttpResponse<byte[]> response = http.send(
					HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
					HttpResponse.BodyHandlers.ofByteArray());
			seen.put(path, response.statusCode() + " " + response.headers().firstValue("content-type").orElse("") + " "
					+ HexFormat.of().formatHex(response.body()));
		}
		return seen;
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void duringTheDrainBodiesWrittenLineByLineOrInUtf8KeepTheFramingTheyHaveWithoutIt(String server) throws Exception {
		try (ConfigurableApplicationContext context = startOn(server)) {
			List<RawHttp.Response> before = ServletDrainApplications.assertFramedDuringTheDrainAsBefore(context,
					List.of("/lines", "/stream-lines", "/utf8-writer"));

			assertThat(before.get(0).framing()).as("lines beyond the buffer").isEqualTo("chunked");
			assertThat(before.get(2).framing()).as("a UTF-8 body well inside the buffer").isEqualTo("content-length");
		}
	}

	@ParameterizedTest
	@CsvSource({ "tomcat,/in-flight-redirect", "tomcat,/in-flight-close", "jetty,/in-flight-redirect",
			"jetty,/in-flight-close" })
	void aRedirectOrAClosedStreamAnsweringARequestInFlightAsTheShutdownBeginsCarriesConnectionClose(String server,
			String path) throws Exception {
		try (ConfigurableApplicationContext context = startOn(server)) {
			RawHttp.Response response = InFlightRequest.assertClosedAfter(context, port(context), path);

			assertThat(response.status()).isIn(200, 302);
		}
	}

	@ParameterizedTest
	@CsvSource({ "tomcat,/silent-events", "tomcat,/raw/silent-stream", "jetty,/silent-events",
			"jetty,/raw/silent-stream" })
	void anEventStreamThatSentNothingYetCarriesConnectionCloseWhenTheDrainEndsIt(String server, String path)
			throws Exception {
		try (ConfigurableApplicationContext context = startOn(server, "lifecycle.streams.end-at=shutdown");
				Socket socket = new Socket("localhost", port(context))) {
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			ConnectionDrainFilter filter = (ConnectionDrainFilter) context
				.getBean("lifecycleConnectionDrainFilter", FilterRegistrationBean.class)
				.getFilter();
			CompletableFuture<RawHttp.Response> stream = CompletableFuture.supplyAsync(() -> {
				try {
					return RawHttp.get(socket, path);
				}
				catch (IOException ex) {
					throw new IllegalStateException(ex);
				}
			});
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> filter.tracked() == 1);

			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			RawHttp.Response ended = stream.get(10, TimeUnit.SECONDS);
			assertThat(ended.status()).isEqualTo(200);
			assertThat(ended.header("connection")).as(ended.headers().toString()).isEqualToIgnoringCase("close");
			assertThat(socket.getInputStream().read()).as("the server closed the connection").isEqualTo(-1);
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ResponsesApplication {

		@Bean
		InFlightRequest inFlightRequest(LifecycleManager manager) {
			return new InFlightRequest(manager);
		}

		/**
		 * A servlet of its own, outside Spring MVC, whose wrappers would hide what the
		 * server does.
		 */
		@Bean
		ServletRegistrationBean<HttpServlet> rawServlet() {
			return new ServletRegistrationBean<>(new RawServlet(), "/raw/*");
		}

		static final class RawServlet extends HttpServlet {

			@Override
			protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
				switch (request.getPathInfo()) {
					case "/print-utf8" -> {
						// Jetty prints in the response's encoding.
						response.setContentType("text/plain;charset=UTF-8");
						response.getOutputStream().print("h\u00e9llo \u20ac");
					}
					case "/reset-writer" -> {
						response.setContentType("text/plain;charset=ISO-8859-1");
						response.getWriter().write("partial");
						response.reset();
						response.setContentType("text/plain;charset=UTF-8");
						response.getWriter().write("h\u00e9llo \u20ac");
					}
					case "/reset-exclusive" -> {
						response.getWriter();
						response.reset();
						response.setContentType("text/plain");
						var out = response.getOutputStream();
						String outcome;
						try {
							response.getWriter();
							outcome = "getWriter allowed";
						}
						catch (IllegalStateException ex) {
							outcome = "IllegalStateException";
						}
						out.write(outcome.getBytes(StandardCharsets.US_ASCII));
					}
					case "/silent-stream" -> {
						// Asynchronous on the server's own request and response, no
						// wrapper of Spring's.
						request.startAsync().setTimeout(0);
						response.setContentType("text/event-stream");
					}
					default -> response.sendError(404);
				}
			}

		}

		@RestController
		static class ResponsesController {

			private final InFlightRequest inFlight;

			ResponsesController(InFlightRequest inFlight) {
				this.inFlight = inFlight;
			}

			/**
			 * Lines of 16 characters or more with println, a little more than the
			 * server's buffer.
			 */
			@GetMapping("/lines")
			void lines(HttpServletResponse response) throws IOException {
				response.setContentType("text/plain;charset=ISO-8859-1");
				var writer = response.getWriter();
				for (int i = 0; i < response.getBufferSize() / 16 + 8; i++) {
					writer.println("0123456789abcde");
				}
			}

			/** The same, printed on the output stream. */
			@GetMapping("/stream-lines")
			void streamLines(HttpServletResponse response) throws IOException {
				response.setContentType("text/plain;charset=ISO-8859-1");
				var out = response.getOutputStream();
				for (int i = 0; i < response.getBufferSize() / 16 + 8; i++) {
					out.println("0123456789abcde");
				}
			}

			/**
			 * 3,000 characters through a UTF-8 writer: 3,000 bytes, well inside either
			 * server's buffer.
			 */
			@GetMapping("/utf8-writer")
			void utf8Writer(HttpServletResponse response) throws IOException {
				response.setContentType("text/plain;charset=UTF-8");
				response.getWriter().write("x".repeat(3000));
			}

			@GetMapping("/in-flight-redirect")
			void inFlightRedirect(HttpServletResponse response) throws IOException {
				this.inFlight.answerOnceTheShutdownBegan();
				response.sendRedirect("/elsewhere");
			}

			/** Its body written before the shutdown, its stream closed after it began. */
			@GetMapping("/in-flight-close")
			void inFlightClose(HttpServletResponse response) throws IOException {
				var out = response.getOutputStream();
				out.write(InFlightRequest.ANSWER.getBytes(StandardCharsets.US_ASCII));
				this.inFlight.answerOnceTheShutdownBegan();
				out.close();
			}

			/** A stream with no event yet. */
			@GetMapping("/silent-events")
			SseEmitter silentEvents() {
				return new SseEmitter(0L);
			}

		}

	}

}
