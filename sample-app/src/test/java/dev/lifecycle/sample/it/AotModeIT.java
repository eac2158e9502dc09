package dev.lifecycle.sample.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.ChildJvms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

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

	@TempDir
	Path work;

	@RegisterExtension
	final ChildJvms jvms = new ChildJvms();

	@Test
	void lifecycleCoordinatesTheShutdownOfTheAotProcessedSample() throws Exception {
		ChildJvm sample = start();
		assertThat(sample.status("/actuator/health/readiness")).isEqualTo(200);
		assertThat(sample.log()).contains("Starting AOT-processed SampleApplication")
			.containsPattern("Lifecycle: started \\d+ component\\(s\\)");
		assertThat(this.work.resolve("running")).exists();

		sample.sigterm();
		assertThat(sample.awaitExit(Duration.ofSeconds(60))).as("exit code; log:\n%s", sample.log()).isZero();
		assertThat(sample.log()).contains("Lifecycle: received SIGTERM",
				"Lifecycle: shutdown complete (clean=true, exitCode=0");
		assertThat(this.work.resolve("running")).doesNotExist();
	}

	@Test
	void lifecycleEnabledFalseAtRunTimeTurnsLifecycleOffInTheAotProcessedSample() throws Exception {
		ChildJvm sample = start("--lifecycle.enabled=false");
		assertThat(sample.status("/actuator/health/readiness")).isEqualTo(200);
		assertThat(sample.log()).contains("Starting AOT-processed SampleApplication")
			.doesNotContain("Lifecycle: started");
		assertThat(this.work.resolve("running")).doesNotExist();
		assertThat(sample.get("/actuator/prometheus").body()).doesNotContain("lifecycle_");

		// SIGTERM: no Lifecycle trap, so the JVM's own handling (143)
		sample.sigterm();
		assertThat(sample.awaitExit(Duration.ofSeconds(60))).as("exit code; log:\n%s", sample.log()).isEqualTo(143);
		assertThat(sample.log()).doesNotContain("Lifecycle: received SIGTERM", "Lifecycle: shutdown initiated");
	}

	@Test
	void signalsTrapFalseAtRunTimeLeavesSigtermToTheJvmInTheAotProcessedSample() throws Exception {
		ChildJvm sample = start("--lifecycle.signals.trap=false");
		assertThat(sample.log()).containsPattern("Lifecycle: started \\d+ component\\(s\\)");

		// SIGTERM: Spring's shutdown hook closes the context, which drains
		sample.sigterm();
		assertThat(sample.awaitExit(Duration.ofSeconds(60))).as("exit code; log:\n%s", sample.log()).isEqualTo(143);
		assertThat(sample.log()).doesNotContain("Lifecycle: received SIGTERM")
			.contains("Lifecycle: shutdown initiated (reason=signal, component=context-close)",
					"Lifecycle: shutdown complete (clean=true");
	}

	private ChildJvm start(String... args) throws IOException {
		Path jar = Path.of(System.getProperty("sample.jar", "target/sample-app.jar")).toAbsolutePath();
		return this.jvms
			.launch(ChildJvm.java("sample", this.work)
				.baseJvmOptions(List.of("-Dspring.aot.enabled=true", "-XX:TieredStopAtLevel=1", "-Xmx256m"))
				.launcher(List.of("-jar", jar.toString()))
				.arguments("--server.port=0", "--sample.data-dir=" + this.work.resolve("data"),
						"--lifecycle.pre-stop.path=" + this.work.resolve("shutdown"),
						"--lifecycle.run-marker.path=" + this.work.resolve("running"))
				.arguments(args)
				.workingDirectory(this.work)
				.startTimeout(Duration.ofSeconds(120))
				.readyWhenPortsLogged(PORT, ChildJvm.HTTP)
				.readyWhenStatus(ChildJvm.HTTP, "/actuator/health/readiness", 200))
			.awaitReady();
	}

}
