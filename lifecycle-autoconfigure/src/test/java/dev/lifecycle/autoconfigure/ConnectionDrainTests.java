package dev.lifecycle.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Keep-alive connections drain too: on a real Tomcat, a connection reused across the first
 * instant of a shutdown gets its response with {@code Connection: close} and is then closed by
 * the server, while the request itself is served.
 */
class ConnectionDrainTests {

	private static ConfigurableApplicationContext start(String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.application.name=keep-alive",
				"lifecycle.signals.trap=false", "lifecycle.close-context=false", "lifecycle.pre-stop.enabled=false",
				"lifecycle.run-marker.enabled=false", "lifecycle.halt-after-ceiling=false", "lifecycle.drain-delay=2s",
				"lifecycle.global-shutdown-timeout=20s"));
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(KeepAliveApplication.class).properties(all.toArray(String[]::new)).run();
	}

	private static int port(ConfigurableApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	@Test
	void aKeepAliveConnectionIsClosedAfterItsFirstResponseOnceTheShutdownBegan() throws Exception {
		try (ConfigurableApplicationContext context = start("lifecycle.connection-close=true");
				Socket socket = new Socket("localhost", port(context))) {
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			Response before = exchange(socket);
			assertThat(before.status()).isEqualTo(200);
			assertThat(before.header("connection")).isNotEqualToIgnoringCase("close");

			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			Response during = exchange(socket);

			assertThat(during.status()).isEqualTo(200);
			assertThat(during.body()).isEqualTo("hello");
			assertThat(during.header("connection")).isEqualToIgnoringCase("close");
			assertThat(socket.getInputStream().read()).as("the server closed the connection").isEqualTo(-1);
		}
	}

	@Test
	void byDefaultTheConnectionStaysOpenDuringTheDrain() throws Exception {
		try (ConfigurableApplicationContext context = start();
				Socket socket = new Socket("localhost", port(context))) {
			socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			assertThat(exchange(socket).header("connection")).isNotEqualToIgnoringCase("close");
			assertThat(exchange(socket).status()).isEqualTo(200);
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
			exchange(socket);

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

	/** One HTTP/1.1 request and its response on a connection kept open. */
	private static Response exchange(Socket socket) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
		out.flush();
		BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII),
				1);
		String statusLine = in.readLine();
		List<String> headers = new ArrayList<>();
		int length = 0;
		for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
			headers.add(line);
			if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
				length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
			}
		}
		char[] body = new char[length];
		int read = 0;
		while (read < length) {
			read += in.read(body, read, length - read);
		}
		return new Response(Integer.parseInt(statusLine.split(" ")[1]), headers, new String(body));
	}

	record Response(int status, List<String> headers, String body) {

		String header(String name) {
			return this.headers.stream()
				.filter((line) -> line.toLowerCase(Locale.ROOT).startsWith(name + ":"))
				.map((line) -> line.substring(line.indexOf(':') + 1).trim())
				.findFirst()
				.orElse("");
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class KeepAliveApplication {

		@RestController
		static class HelloController {

			private final java.util.concurrent.ScheduledExecutorService ticker = java.util.concurrent.Executors
				.newSingleThreadScheduledExecutor();

			@GetMapping("/hello")
			String hello() {
				return "hello";
			}

			/** Never completes on its own: a tick every 100 ms until sending fails. */
			@GetMapping("/events")
			org.springframework.web.servlet.mvc.method.annotation.SseEmitter events() {
				var emitter = new org.springframework.web.servlet.mvc.method.annotation.SseEmitter(0L);
				java.util.concurrent.atomic.AtomicReference<java.util.concurrent.ScheduledFuture<?>> task =
						new java.util.concurrent.atomic.AtomicReference<>();
				task.set(this.ticker.scheduleAtFixedRate(() -> {
					try {
						emitter.send("tick");
					}
					catch (Exception ex) {
						task.get().cancel(false);
					}
				}, 0, 100, java.util.concurrent.TimeUnit.MILLISECONDS));
				return emitter;
			}

		}

	}

}
