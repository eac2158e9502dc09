package dev.lifecycle.scale.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Pre-stop latency harness (run-all.sh item 4), run with {@code --harness=prestop}:
 * starts the app (mode {@code none}: Spring Boot, Tomcat, actuator and the Lifecycle
 * starter with its pre-stop watcher) N times one after another in this JVM, each a fresh
 * application context on its own port with its own pre-stop file. For each: waits for
 * readiness 200 over HTTP, idles for the settle time, creates the file and polls
 * {@code /actuator/health/readiness} about every 1 ms (one keep-alive connection) until
 * it answers something else, then waits for the context to close (the pre-stop shutdown
 * closes it; {@code lifecycle.signals.trap=false} keeps the JVM alive; drain delay 250
 * ms, so the 503 is observable before the server stops). Prints "prestop-sample i
 * latency_ms status polls" lines.
 *
 * <p>
 * Options: {@code --harness.samples=100 --harness.settle-ms=300 --harness.dir=/tmp/...};
 * any other argument is passed to the application.
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
		PrestopMeasurement measurement = new PrestopMeasurement(settleMillis);
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
			PrestopMeasurement.Sample sample = measurement.measure(port, file, Duration.ofSeconds(60));
			if (sample == null) {
				throw new IllegalStateException("sample " + i + ": readiness never 200");
			}
			System.out.println("prestop-sample " + i + " " + sample.line());
			long closeDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (context.isActive() && System.nanoTime() < closeDeadline) {
				Thread.sleep(20);
			}
			if (context.isActive()) {
				System.out.printf("prestop-sample %d: context still active 60 s after the pre-stop file; closing it%n",
						i);
				context.close();
			}
			Files.deleteIfExists(file);
		}
		System.exit(0);
	}

	private static String value(String arg) {
		return arg.substring(arg.indexOf('=') + 1);
	}

}
