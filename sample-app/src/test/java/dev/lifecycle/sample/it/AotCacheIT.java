package dev.lifecycle.sample.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * The JDK AOT cache recipe from the manual and {@code deploy/aot-cache/}, on the real
 * sample jar and a JDK that has the cache (25 or later): extract the jar, run the
 * training run ({@code -XX:AOTCacheOutput} with {@code -Dspring.context.exit=onRefresh}),
 * then start with the cache. The training run exits 0 and leaves no run marker and no
 * report, so the service's start counts no unclean previous run; the start really uses
 * the cache ({@code -XX:AOTMode=on} refuses to start without it) and shuts down cleanly.
 * Skipped when no such JDK is found.
 */
class AotCacheIT {

	private static final Pattern PORT = Pattern.compile("Tomcat started on port\\D*(\\d+)");

	private static final Pattern UNCLEAN_PREVIOUS_RUN = Pattern
		.compile("lifecycle_shutdown_initiated_total\\{(?=[^}]*trigger_component=\"previous-run\")"
				+ "(?=[^}]*trigger_reason=\"unclean\")[^}]*} (\\S+)");

	private static final Duration PROCESS_BOUND = Duration.ofMinutes(3);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@TempDir
	Path work;

	private final List<Process> processes = new ArrayList<>();

	@AfterEach
	void kill() {
		this.processes.forEach(Process::destroyForcibly);
	}

	@Test
	@Timeout(value = 10, unit = TimeUnit.MINUTES)
	void aTrainingRunLeavesNoTraceAndTheStartWithTheCacheSeesNoUncleanPreviousRun() throws Exception {
		Optional<Path> java = javaWithAotCache();
		assumeThat(java).as("a JDK 25 or later (the JDK AOT cache)").isPresent();
		Path jar = Path.of(System.getProperty("sample.jar", "target/sample-app.jar")).toAbsolutePath();
		Path running = this.work.resolve("running");

		Path extractLog = this.work.resolve("extract.log");
		assertThat(run(java.get(), extractLog, "-Djarmode=tools", "-jar", jar.toString(), "extract", "--destination",
				this.work.resolve("app").toString()))
			.as("extract; log:\n%s", read(extractLog))
			.isZero();
		Path application = this.work.resolve("app").resolve(jar.getFileName());
		assertThat(application).isRegularFile();

		Path trainingLog = this.work.resolve("training.log");
		assertThat(run(java.get(), trainingLog, "-XX:AOTCacheOutput=app.aot", "-Dspring.context.exit=onRefresh", "-jar",
				application.toString(), "--server.port=0", "--sample.data-dir=" + this.work.resolve("data"),
				"--lifecycle.run-marker.path=" + running))
			.as("training run; log:\n%s", read(trainingLog))
			.isZero();
		assertThat(this.work.resolve("app.aot")).isNotEmptyFile();
		assertThat(read(trainingLog))
			.contains("Lifecycle: spring.context.exit=onRefresh; this run writes no run marker or shutdown report")
			.doesNotContain("Lifecycle: started", "Lifecycle: shutdown initiated");
		assertThat(running).doesNotExist();
		assertThat(reports()).isEmpty();

		Path serviceLog = this.work.resolve("service.log");
		Process service = start(java.get(), serviceLog, "-XX:AOTCache=app.aot", "-XX:AOTMode=on", "-jar",
				application.toString(), "--server.port=0", "--sample.data-dir=" + this.work.resolve("data"),
				"--lifecycle.run-marker.path=" + running);
		int port = awaitReady(service, serviceLog);
		assertThat(read(serviceLog)).containsPattern("Lifecycle: started \\d+ component\\(s\\)")
			.doesNotContain("previous process did not finish", "previous run (", "previous shutdown (");
		assertThat(uncleanPreviousRuns(port)).isZero();
		assertThat(running).exists();

		service.destroy(); // SIGTERM
		assertThat(service.waitFor(PROCESS_BOUND.toSeconds(), TimeUnit.SECONDS))
			.as("exited; log:\n%s", read(serviceLog))
			.isTrue();
		assertThat(service.exitValue()).as("exit code; log:\n%s", read(serviceLog)).isZero();
		assertThat(read(serviceLog)).contains("Lifecycle: shutdown complete (clean=true, exitCode=0");
		assertThat(running).doesNotExist();
	}

	/**
	 * A {@code java} that has the JDK AOT cache: this JVM's own if it is 25 or later,
	 * else Temurin 25 if installed.
	 */
	static Optional<Path> javaWithAotCache() {
		if (Runtime.version().feature() >= 25) {
			return Optional.of(Path.of(System.getProperty("java.home"), "bin", "java"));
		}
		try (Stream<Path> jdks = Files.list(Path.of("/usr/lib/jvm"))) {
			return jdks.filter((jdk) -> jdk.getFileName().toString().startsWith("temurin-25"))
				.map((jdk) -> jdk.resolve("bin").resolve("java"))
				.filter(Files::isExecutable)
				.sorted()
				.findFirst();
		}
		catch (IOException ex) {
			return Optional.empty();
		}
	}

	private int run(Path java, Path log, String... args) throws Exception {
		Process process = start(java, log, args);
		assertThat(process.waitFor(PROCESS_BOUND.toSeconds(), TimeUnit.SECONDS))
			.as("%s ended; log:\n%s", List.of(args), read(log))
			.isTrue();
		return process.exitValue();
	}

	private Process start(Path java, Path log, String... args) throws IOException {
		List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx256m"));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).directory(this.work.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		this.processes.add(process);
		return process;
	}

	private int awaitReady(Process process, Path log) {
		int[] port = new int[1];
		await("port in " + log).atMost(PROCESS_BOUND).pollInterval(Duration.ofMillis(200)).until(() -> {
			if (!process.isAlive()) {
				throw new IllegalStateException("The sample exited with " + process.exitValue() + ":\n" + read(log));
			}
			Matcher matcher = PORT.matcher(read(log));
			if (matcher.find()) {
				port[0] = Integer.parseInt(matcher.group(1));
				return true;
			}
			return false;
		});
		await("readiness").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.ignoreExceptions()
			.until(() -> get(port[0], "/actuator/health/readiness").statusCode() == 200);
		return port[0];
	}

	/** The previous-run/unclean counter as scraped, 0 when the series is absent. */
	private double uncleanPreviousRuns(int port) throws Exception {
		Matcher matcher = UNCLEAN_PREVIOUS_RUN.matcher(get(port, "/actuator/prometheus").body());
		return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private List<Path> reports() throws IOException {
		try (Stream<Path> files = Files.list(this.work)) {
			return files.filter((file) -> file.getFileName().toString().contains(".shutdown-")).toList();
		}
	}

	private static String read(Path log) throws IOException {
		return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
	}

}
