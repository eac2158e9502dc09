package dev.lifecycle.shapes;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lifecycle.test.ShutdownReports;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.lifecycle.test.LifecycleAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application of ordinary shapes as a real JVM: JPA, Quartz's non-daemon threads, a
 * Spring Integration gateway, a step-scoped Batch reader and scoped proxies all start,
 * its page answers 200, and one real SIGTERM ends it with exit code 0, a clean report on
 * disk and its shutdown handler run.
 */
class ShapesProcessTests {

	private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");

	@TempDir
	Path directory;

	private Process process;

	private Path log;

	@AfterEach
	void destroy() {
		if (this.process != null && this.process.isAlive()) {
			this.process.destroyForcibly();
		}
	}

	@Test
	void sigtermEndsTheApplicationCleanlyWithExitCodeZero() throws Exception {
		Path audit = this.directory.resolve("audit");
		start("--shapes.audit-file=" + audit);
		int port = awaitPort();
		HttpClient http = HttpClient.newHttpClient();
		HttpResponse<String> shapes = http
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/shapes"))
				.timeout(Duration.ofSeconds(60))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(shapes.statusCode()).as(shapes.body()).isEqualTo(200);
		assertThat(Shape.values()).allSatisfy(
				(shape) -> assertThat(shape.workedIn(shapes.body())).as(shape + " in " + shapes.body()).isTrue());

		new ProcessBuilder("kill", "-TERM", Long.toString(this.process.pid())).start().waitFor(10, TimeUnit.SECONDS);

		assertThat(this.process.waitFor(120, TimeUnit.SECONDS)).as("exited").isTrue();
		assertThat(this.process.exitValue()).as(log()).isZero();
		assertThat(ShutdownReports.newest(this.directory.resolve("marker"))).as(log()).isClean().hasExitCode(0);
		assertThat(Files.readString(audit)).isEqualTo("audit checkpoint\n");
		// A clean close says nothing of a failed start.
		assertThat(log()).contains("Lifecycle: shutdown complete (clean=true, exitCode=0")
			.doesNotContain("reason=start-failed")
			.doesNotContainPattern(" WARN .*Lifecycle:");
	}

	private void start(String... arguments) throws Exception {
		this.log = this.directory.resolve("shapes.log");
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx384m", "-Xshare:auto"));
		command.addAll(
				List.of("-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
						ShapesApplication.class.getName(), "--server.port=0",
						"--lifecycle.run-marker.path=" + this.directory.resolve("marker")));
		command.addAll(List.of(arguments));
		this.process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(this.log.toFile()).start();
	}

	private int awaitPort() {
		await("the web server's port").atMost(Duration.ofMinutes(4))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> PORT.matcher(log()).find() && log().contains("Started ShapesApplication")
					|| !this.process.isAlive());
		Matcher port = PORT.matcher(log());
		assertThat(port.find()).as(log()).isTrue();
		return Integer.parseInt(port.group(1));
	}

	private String log() {
		try {
			return Files.readString(this.log);
		}
		catch (Exception ex) {
			return "";
		}
	}

}
