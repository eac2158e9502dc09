package dev.lifecycle.scale.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Pre-stop latency harness (BENCHMARKS.md item 4), run with {@code --harness=prestop}: starts the
 * app (mode {@code none}: Spring Boot, Tomcat, actuator and the Lifecycle starter with its pre-stop
 * watcher) N times one after another in this JVM, each a fresh application context on its own port
 * with its own pre-stop file. For each: waits for readiness 200 over HTTP, idles for the settle
 * time, creates the file and polls {@code /actuator/health/readiness} about every 1 ms (one
 * keep-alive connection) until it answers something else, then waits for the context to close (the
 * pre-stop shutdown closes it; {@code lifecycle.signals.trap=false} keeps the JVM alive; drain delay 250 ms, so the 503 is observable before the server
 * stops).
 * Prints "prestop-sample i latency_ms status polls" lines.
 *
 * <p>Options: {@code --harness.samples=100 --harness.settle-ms=300 --harness.dir=/tmp/...}; any other
 * argument is passed to the application.
 */
final class PrestopHarness {

	private PrestopHarness() {
	}

	static void run(String[] args) throws Exception {
		int samples = 100;
		long settleMillis = 300;
		Path dir = Files.createTempDirectory("prestop-harness");
		List<String> appArgs = new ArrayList<>();
		for (String arg : args) {
			if (arg.startsWith("--harness.samples=")) {
				samples = Integer.parseInt(value(arg));
			}
			else if (arg.startsWith("--harness.settle-ms=")) {
				settleMillis = Long.parseLong(value(arg));
			}
			else if (arg.startsWith("--harness.dir=")) {
				dir = Files.createDirectories(Path.of(value(arg)));
			}
			else if (!arg.startsWith("--harness=")) {
				appArgs.add(arg);
			}
		}
		HttpClient client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(2))
			.build();
		for (int i = 0; i < samples; i++) {
			Path file = dir.resolve("prestop-" + i);
			Files.deleteIfExists(file);
			List<String> runArgs = new ArrayList<>(appArgs);
			runArgs.addAll(List.of("--scale.mode=none", "--server.port=0", "--lifecycle.signals.trap=false",
					"--lifecycle.pre-stop.enabled=true", "--lifecycle.pre-stop.path=" + file,
					"--lifecycle.drain-delay=250ms"));
			ConfigurableApplicationContext context = SpringApplication.run(ScaleApplication.class,
					runArgs.toArray(String[]::new));
			int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
			HttpRequest readiness = HttpRequest
				.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness"))
				.timeout(Duration.ofSeconds(5))
				.build();
			long readyDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (status(client, readiness) != 200) {
				if (System.nanoTime() > readyDeadline) {
					throw new IllegalStateException("sample " + i + ": readiness never 200");
				}
				Thread.sleep(10);
			}
			for (int w = 0; w < 20; w++) {
				status(client, readiness);
			}
			Thread.sleep(settleMillis);
			long start = System.nanoTime();
			Files.createFile(file);
			int status;
			int polls = 0;
			long end;
			while (true) {
				status = status(client, readiness);
				end = System.nanoTime();
				polls++;
				if (status != 200 || end - start > 10_000_000_000L) {
					break;
				}
				Thread.sleep(1);
			}
			System.out.printf("prestop-sample %d %.3f %d %d%n", i, (end - start) / 1e6, status, polls);
			long closeDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (context.isActive() && System.nanoTime() < closeDeadline) {
				Thread.sleep(20);
			}
			if (context.isActive()) {
				System.out.printf("prestop-sample %d: context still active 60 s after the pre-stop file; closing it%n", i);
				context.close();
			}
			Files.deleteIfExists(file);
		}
		System.exit(0);
	}

	private static String value(String arg) {
		return arg.substring(arg.indexOf('=') + 1);
	}

	private static int status(HttpClient client, HttpRequest request) {
		try {
			return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
		}
		catch (Exception ex) {
			return -1;
		}
	}

}
