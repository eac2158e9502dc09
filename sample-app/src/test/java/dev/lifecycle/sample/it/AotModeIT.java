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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample jar run from its ahead-of-time initializer
 * ({@code -Dspring.aot.enabled=true}, the code a native image runs), built by
 * {@code spring-boot:process-aot} with Lifecycle on. Conditions were decided at build
 * time, so these prove that Lifecycle's run-time switches still work: on, it coordinates
 * the shutdown and exits 0; with {@code --lifecycle.enabled=false} it starts nothing,
 * traps no signal and writes no run marker, and the JVM ends as plain Spring Boot does;
 * with {@code --lifecycle.signals.trap=false} SIGTERM is the JVM's, and Spring's shutdown
 * hook runs the sequence.
 */
class AotModeIT {

	private static final Pattern PORT = Pattern.compile("Tomcat started on port\\D*(\\d+)");

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@TempDir
	Path work;

	private Process process;

	private Path log;

	@AfterEach
	void kill() {
		if (this.process != null) {
			this.process.destroyForcibly();
		}
	}

	@Test
	void lifecycleCoordinatesTheShutdownOfTheAotProcessedSample() throws Exception {
		int port = start();
		assertThat(status(port, "/actuator/health/readiness")).isEqualTo(200);
		assertThat(log()).contains("Starting AOT-processed SampleApplication")
			.containsPattern("Lifecycle: started \\d+ component\\(s\\)");
		assertThat(this.work.resolve("running")).exists();

		this.process.destroy(); // SIGTERM
		assertThat(this.process.waitFor(60, TimeUnit.SECONDS)).as("exited; log:\n%s", log()).isTrue();
		assertThat(this.process.exitValue()).as("exit code; log:\n%s", log()).isZero();
		assertThat(log()).contains("Lifecycle: received SIGTERM",
				"Lifecycle: shutdown complete (clean=true, exitCode=0");
		assertThat(this.work.resolve("running")).doesNotExist();
	}

	@Test
	void lifecycleEnabledFalseAtRunTimeTurnsLifecycleOffInTheAotProcessedSample() throws Exception {
		int port = start("--lifecycle.enabled=false");
		assertThat(status(port, "/actuator/health/readiness")).isEqualTo(200);
		assertThat(log()).contains("Starting AOT-processed SampleApplication").doesNotContain("Lifecycle: started");
		assertThat(this.work.resolve("running")).doesNotExist();
		assertThat(scrape(port)).doesNotContain("lifecycle_");

		// SIGTERM: no Lifecycle trap, so the JVM's own handling (143)
		this.process.destroy();
		assertThat(this.process.waitFor(60, TimeUnit.SECONDS)).as("exited; log:\n%s", log()).isTrue();
		assertThat(this.process.exitValue()).as("exit code; log:\n%s", log()).isEqualTo(143);
		assertThat(log()).doesNotContain("Lifecycle: received SIGTERM", "Lifecycle: shutdown initiated");
	}

	@Test
	void signalsTrapFalseAtRunTimeLeavesSigtermToTheJvmInTheAotProcessedSample() throws Exception {
		start("--lifecycle.signals.trap=false");
		assertThat(log()).containsPattern("Lifecycle: started \\d+ component\\(s\\)");

		// SIGTERM: Spring's shutdown hook closes the context, which drains
		this.process.destroy();
		assertThat(this.process.waitFor(60, TimeUnit.SECONDS)).as("exited; log:\n%s", log()).isTrue();
		assertThat(this.process.exitValue()).as("exit code; log:\n%s", log()).isEqualTo(143);
		assertThat(log()).doesNotContain("Lifecycle: received SIGTERM")
			.contains("Lifecycle: shutdown initiated (reason=signal, component=context-close)",
					"Lifecycle: shutdown complete (clean=true");
	}

	private int start(String... args) throws IOException {
		Path jar = Path.of(System.getProperty("sample.jar", "target/sample-app.jar")).toAbsolutePath();
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Dspring.aot.enabled=true",
						"-XX:TieredStopAtLevel=1", "-Xmx256m", "-jar", jar.toString(), "--server.port=0",
						"--sample.data-dir=" + this.work.resolve("data"),
						"--lifecycle.pre-stop.path=" + this.work.resolve("shutdown"),
						"--lifecycle.run-marker.path=" + this.work.resolve("running")));
		command.addAll(List.of(args));
		this.log = this.work.resolve("sample.log");
		this.process = new ProcessBuilder(command).directory(this.work.toFile())
			.redirectErrorStream(true)
			.redirectOutput(this.log.toFile())
			.start();
		int[] port = new int[1];
		await("port in " + this.log).atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> {
			if (!this.process.isAlive()) {
				throw new IllegalStateException("The sample exited with " + this.process.exitValue() + ":\n" + log());
			}
			Matcher matcher = PORT.matcher(log());
			if (matcher.find()) {
				port[0] = Integer.parseInt(matcher.group(1));
				return true;
			}
			return false;
		});
		await("readiness").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.ignoreExceptions()
			.until(() -> status(port[0], "/actuator/health/readiness") == 200);
		return port[0];
	}

	private int status(int port, String path) throws Exception {
		return get(port, path).statusCode();
	}

	private String scrape(int port) throws Exception {
		return get(port, "/actuator/prometheus").body();
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private String log() throws IOException {
		return Files.readString(this.log, StandardCharsets.UTF_8);
	}

}
