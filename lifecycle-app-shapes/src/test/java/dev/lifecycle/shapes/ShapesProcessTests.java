package dev.lifecycle.shapes;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import dev.lifecycle.core.ShutdownSignal;
import dev.lifecycle.test.ShutdownReports;
import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.ChildJvms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static dev.lifecycle.test.LifecycleAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

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

	@RegisterExtension
	final ChildJvms jvms = new ChildJvms();

	@Test
	void sigtermEndsTheApplicationCleanlyWithExitCodeZero() throws Exception {
		Path audit = this.directory.resolve("audit");
		ChildJvm shapesApp = this.jvms.start(ChildJvm.java("shapes", this.directory)
			.mainClass(ShapesApplication.class)
			.baseJvmOptions(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx384m", "-Xshare:auto"))
			.arguments("--server.port=0", "--lifecycle.run-marker.path=" + this.directory.resolve("marker"),
					"--shapes.audit-file=" + audit)
			.startTimeout(Duration.ofMinutes(4))
			.readyWhenPortsLogged(PORT, ChildJvm.HTTP)
			.readyWhenLogged("Started ShapesApplication"));
		HttpClient http = HttpClient.newHttpClient();
		HttpResponse<String> shapes = http
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + shapesApp.port() + "/shapes"))
				.timeout(Duration.ofSeconds(60))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(shapes.statusCode()).as(shapes.body()).isEqualTo(200);
		assertThat(Shape.values()).allSatisfy(
				(shape) -> assertThat(shape.workedIn(shapes.body())).as(shape + " in " + shapes.body()).isTrue());

		shapesApp.signal(ShutdownSignal.TERM);

		assertThat(shapesApp.awaitExit(Duration.ofSeconds(120))).as(shapesApp.log()).isZero();
		assertThat(ShutdownReports.newest(this.directory.resolve("marker"))).as(shapesApp.log())
			.isClean()
			.hasExitCode(0);
		assertThat(Files.readString(audit)).isEqualTo("audit checkpoint\n");
		// A clean close says nothing of a failed start.
		assertThat(shapesApp.log()).contains("Lifecycle: shutdown complete (clean=true, exitCode=0")
			.doesNotContain("reason=start-failed")
			.doesNotContainPattern(" WARN .*Lifecycle:");
	}

}
