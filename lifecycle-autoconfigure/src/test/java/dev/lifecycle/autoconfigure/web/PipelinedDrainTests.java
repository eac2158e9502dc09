package dev.lifecycle.autoconfigure.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lifecycle.autoconfigure.web.reactive.ReactiveConnectionDrainTests;
import dev.lifecycle.autoconfigure.web.servlet.ServletDrainApplications;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests pipelined on one HTTP/1.1 connection during the drain are all answered, on
 * every server: each is served, or told to retry (503 with Retry-After); none is dropped
 * unanswered.
 */
class PipelinedDrainTests {

	private static final int PIPELINED = 6;

	private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");

	@ParameterizedTest(name = "{0} {1}")
	@CsvSource({ "tomcat, GET", "jetty, GET", "reactor-netty, GET", "tomcat, POST", "jetty, POST",
			"reactor-netty, POST" })
	void sixPipelinedRequestsDuringTheDrainAreAllAnswered(String server, String method) throws Exception {
		try (ConfigurableApplicationContext context = start(server)) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			assertThat(statuses(pipelined(port, method, false))).as("before the shutdown")
				.hasSize(PIPELINED)
				.containsOnly(200);
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			String answers = pipelined(port, method, true);
			List<Integer> statuses = statuses(answers);
			System.out.println(server + " " + method + " during the drain: " + statuses);
			assertThat(statuses).as("answers to %s pipelined requests:\n%s", PIPELINED, answers)
				.hasSize(PIPELINED)
				.containsOnly(200);
			// Only the last answer says close, and the server closes the connection after
			// it.
			assertThat(answers.toLowerCase(java.util.Locale.ROOT).split("connection: close", -1)).hasSize(2);
			assertThat(answers.toLowerCase(java.util.Locale.ROOT).lastIndexOf("connection: close"))
				.isGreaterThan(answers.lastIndexOf("HTTP/1.1 200"));
			assertThat(answers).doesNotContain("[the connection stayed open]");
			// The servlet application's slow component would hold the close until the
			// ceiling.
			context.getBeanProvider(DrainingApplication.class)
				.ifAvailable((application) -> application.releaseSlow.countDown());
		}
	}

	private static ConfigurableApplicationContext start(String server) {
		if (server.equals("reactor-netty")) {
			return new SpringApplicationBuilder(ReactiveConnectionDrainTests.ReactiveApplication.class)
				.web(WebApplicationType.REACTIVE)
				.properties("server.port=0", "spring.application.name=pipelined", "lifecycle.signals.trap=false",
						"lifecycle.close-context=false", "lifecycle.pre-stop.enabled=false",
						"lifecycle.run-marker.enabled=false", "lifecycle.drain-delay=2s",
						"lifecycle.global-shutdown-timeout=20s")
				.run("--spring.autoconfigure.exclude="
						+ "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
						+ "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration");
		}
		return ServletDrainApplications.startOn(DrainingApplication.class, server);
	}

	/**
	 * Sends the requests in one write and reads until every answer has come (or, during
	 * the drain, until the server closes the connection), or it stays quiet for 10 s.
	 */
	private static String pipelined(int port, String method, boolean untilClosed) throws IOException {
		StringBuilder requests = new StringBuilder();
		for (int i = 0; i < PIPELINED; i++) {
			if (method.equals("POST")) {
				String body = "{\"order\":" + i + "}";
				requests
					.append("POST /hello HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: ")
					.append(body.length())
					.append("\r\n\r\n")
					.append(body);
			}
			else {
				requests.append("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n");
			}
		}
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(requests.toString().getBytes(StandardCharsets.US_ASCII));
			socket.getOutputStream().flush();
			ByteArrayOutputStream received = new ByteArrayOutputStream();
			InputStream in = socket.getInputStream();
			byte[] buffer = new byte[8192];
			try {
				for (int read = in.read(buffer); read != -1; read = in.read(buffer)) {
					received.write(buffer, 0, read);
					String text = received.toString(StandardCharsets.US_ASCII);
					if (!untilClosed && statuses(text).size() == PIPELINED && text.endsWith("hello")) {
						break;
					}
				}
			}
			catch (SocketTimeoutException ex) {
				// Kept open and quiet: everything that was coming has come.
				if (untilClosed) {
					received.write("\n[the connection stayed open]".getBytes(StandardCharsets.US_ASCII));
				}
			}
			catch (IOException ex) {
				// Reset by the server: what arrived before counts.
			}
			return received.toString(StandardCharsets.US_ASCII);
		}
	}

	private static List<Integer> statuses(String answers) {
		List<Integer> statuses = new ArrayList<>();
		Matcher matcher = STATUS_LINE.matcher(answers);
		while (matcher.find()) {
			statuses.add(Integer.parseInt(matcher.group(1)));
		}
		return statuses;
	}

}
