package dev.lifecycle.autoconfigure.web.servlet;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.lifecycle.autoconfigure.web.RawHttp;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Starts a servlet test application on a real Tomcat or Jetty, on a free port, with
 * Lifecycle's process-wide parts (signals, context close, pre-stop file, run marker,
 * halt) off and a 2 s drain delay.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
public final class ServletDrainApplications {

	private ServletDrainApplications() {
	}

	/**
	 * Starts {@code application} on {@code server}.
	 * @param application the application's configuration class
	 * @param server {@code tomcat} or {@code jetty}
	 * @param properties more properties, later ones winning
	 * @return the running context
	 */
	public static ConfigurableApplicationContext startOn(Class<?> application, String server, String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.application.name=drain",
				"lifecycle.signals.trap=false", "lifecycle.close-context=false", "lifecycle.pre-stop.enabled=false",
				"lifecycle.run-marker.enabled=false", "lifecycle.halt-after-ceiling=false", "lifecycle.drain-delay=2s",
				"lifecycle.global-shutdown-timeout=20s"));
		all.addAll(List.of(properties));
		String[] arguments = server.equals("jetty") ? new String[] { "--spring.autoconfigure.exclude="
				+ "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration" }
				: new String[0];
		return new SpringApplicationBuilder(application).properties(all.toArray(String[]::new)).run(arguments);
	}

	/**
	 * Asks for each path on a connection of its own, then begins the shutdown and asks
	 * again: each answer during the drain has the status, framing and body size it had
	 * before, never a body only the connection's close delimits, carries
	 * {@code Connection: close}, and the server closes the connection after it.
	 * @return the answers before the shutdown, in the order of the paths
	 */
	static List<RawHttp.Response> assertFramedDuringTheDrainAsBefore(ConfigurableApplicationContext context,
			List<String> paths) throws IOException {
		int port = port(context);
		List<RawHttp.Response> before = new ArrayList<>();
		for (String path : paths) {
			try (Socket socket = connect(port)) {
				before.add(RawHttp.get(socket, path));
			}
		}
		context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
		for (int i = 0; i < paths.size(); i++) {
			String path = paths.get(i);
			try (Socket socket = connect(port)) {
				RawHttp.Response during = RawHttp.get(socket, path);
				RawHttp.Response usual = before.get(i);
				assertThat(during.status()).as(path).isEqualTo(usual.status());
				assertThat(during.framing()).as(path + ": " + during.headers())
					.isEqualTo(usual.framing())
					.isNotEqualTo("close-delimited");
				assertThat(during.body()).as(path).hasSameSizeAs(usual.body());
				assertThat(during.header("connection")).as(path).isEqualToIgnoringCase("close");
				assertThat(socket.getInputStream().read()).as("the server closed the connection").isEqualTo(-1);
			}
		}
		return before;
	}

	private static Socket connect(int port) throws IOException {
		Socket socket = new Socket("localhost", port);
		socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
		return socket;
	}

	/** The port the context's web server listens on. */
	static int port(ConfigurableApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

}
