package dev.lifecycle.autoconfigure.web.reactive;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On Reactor Netty, requests pipelined on one HTTP/1.1 connection during the drain are
 * all served and only the last answer says {@code Connection: close}, after which the
 * server closes the connection: whether the handler answers on the thread that read the
 * request or later on another. Round after round, since how far Netty has read ahead
 * differs between rounds. The drain is adaptive: the rounds keep it open, and it ends a
 * few seconds after the last instead of holding the close for a fixed minute.
 */
class ReactivePipeliningTests {

	private static final int PIPELINED = 6;

	private static final int ROUNDS = 10;

	private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");

	@Test
	void theLastOfSixPipelinedRequestsSaysCloseEveryRoundWithSynchronousAndAsynchronousHandlers() throws Exception {
		try (ConfigurableApplicationContext context = start()) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			for (String path : List.of("/hello-later", "/hello")) {
				assertThat(pipelined(port, path, false)).as("before the shutdown: all served, none says close")
					.doesNotContainIgnoringCase("connection: close")
					.satisfies((answers) -> assertThat(statuses(answers)).hasSize(PIPELINED).containsOnly(200));
			}
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			List<String> failed = new ArrayList<>();
			for (String path : List.of("/hello-later", "/hello")) {
				for (int round = 1; round <= ROUNDS; round++) {
					String answers;
					try {
						answers = pipelined(port, path, true);
					}
					catch (IOException ex) {
						// A round that failed after 15 s of quiet lets the drain end: the
						// next finds no server.
						answers = "[no connection: " + ex + "]";
					}
					if (!closesAfterTheLast(answers)) {
						failed.add(path + " round " + round + ":\n" + answers);
					}
				}
			}
			assertThat(failed)
				.as("rounds in which the answers to %s pipelined requests did not end with the "
						+ "only Connection: close and the connection's close", PIPELINED)
				.isEmpty();
		}
	}

	private static boolean closesAfterTheLast(String answers) {
		String lower = answers.toLowerCase(Locale.ROOT);
		return statuses(answers).equals(List.of(200, 200, 200, 200, 200, 200))
				&& lower.split("connection: close", -1).length == 2
				&& lower.lastIndexOf("connection: close") > answers.lastIndexOf("HTTP/1.1 200")
				&& !answers.contains("[the connection stayed open]");
	}

	private static ConfigurableApplicationContext start() {
		return new SpringApplicationBuilder(ReactiveConnectionDrainTests.ReactiveApplication.class)
			.web(WebApplicationType.REACTIVE)
			.properties("server.port=0", "spring.application.name=pipelined", "lifecycle.signals.trap=false",
					"lifecycle.close-context=false", "lifecycle.pre-stop.enabled=false",
					"lifecycle.run-marker.enabled=false", "lifecycle.drain-delay=60s",
					"lifecycle.drain-quiet-period=5s", "lifecycle.drain-minimum=1s",
					"lifecycle.global-shutdown-timeout=90s")
			.run("--spring.autoconfigure.exclude="
					+ "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
					+ "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration");
	}

	/**
	 * Sends the requests in one write and reads until the server closes the connection
	 * (or, before the shutdown, until every answer came), or 15 s of quiet.
	 */
	private static String pipelined(int port, String path, boolean untilClosed) throws IOException {
		String requests = ("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").repeat(PIPELINED);
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout(15_000);
			socket.getOutputStream().write(requests.getBytes(StandardCharsets.US_ASCII));
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
				received.write("\n[the connection stayed open]".getBytes(StandardCharsets.US_ASCII));
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
