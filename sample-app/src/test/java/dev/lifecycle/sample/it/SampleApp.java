package dev.lifecycle.sample.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.JvmLaunch;

/**
 * How the process tests launch the packaged sample jar as a {@link ChildJvm}: on a free
 * port (Tomcat's port 0, read back from the log), with its own data directory, pre-stop
 * file and run marker, its output in a log file of its own in the work directory (a
 * restart may share it). It is launched as {@link ClassDataArchive} says: extracted, with
 * a class-data archive for a quicker start. Ready once its ports are logged and its
 * readiness probe answers 200.
 */
final class SampleApp {

	private static final Pattern PORT = Pattern.compile("Tomcat started on port\\D*(\\d+)");

	private SampleApp() {
	}

	/**
	 * Launches the jar.
	 * @param work a directory for this instance's log, pre-stop file and run marker
	 * @param dataDir the sample's data directory (shared by a restart)
	 * @param args extra {@code --name=value} arguments
	 */
	static ChildJvm launch(Path work, Path dataDir, String... args) throws IOException {
		return launch(work, dataDir, List.of(), args);
	}

	/**
	 * Launches the jar with JVM options of its own.
	 * @param work a directory for this instance's log, pre-stop file and run marker
	 * @param dataDir the sample's data directory (shared by a restart)
	 * @param jvmOptions options for the JVM; a heap size given here replaces the default
	 * one
	 * @param args extra {@code --name=value} arguments, each replacing a default of the
	 * same name
	 */
	static ChildJvm launch(Path work, Path dataDir, List<String> jvmOptions, String... args) throws IOException {
		Path jar = Path.of(System.getProperty("sample.jar", "target/sample-app.jar")).toAbsolutePath();
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException("The sample jar is missing: " + jar + " (run mvn package first)");
		}
		Files.createDirectories(work);
		// The application's server starts first, then the management server when it has
		// its own port.
		List<String> ports = new ArrayList<>(List.of(ChildJvm.HTTP));
		if (List.of(args).stream().anyMatch((arg) -> arg.startsWith("--management.server.port="))) {
			ports.add(ChildJvm.MANAGEMENT);
		}
		JvmLaunch launch = ChildJvm.java("sample", work)
			// C1 only and a small heap: quicker starts on a two-core CI machine, plenty
			// for the tests.
			.baseJvmOptions(List.of("-XX:TieredStopAtLevel=1", "-Xmx256m"))
			.jvmOptions(jvmOptions)
			.launcher(ClassDataArchive.launch(jar))
			.arguments("--server.port=0", "--sample.data-dir=" + dataDir,
					"--lifecycle.pre-stop.path=" + work.resolve("shutdown"),
					"--lifecycle.run-marker.path=" + work.resolve("running"), "--sample.status.interval=1s")
			.arguments(args)
			.workingDirectory(work)
			.logFile(Files.createTempFile(work, "sample-", ".log"))
			.readyWhenPortsLogged(PORT, ports.toArray(String[]::new))
			.readyWhenStatus(ChildJvm.MANAGEMENT, "/actuator/health/readiness", 200);
		return launch.launch();
	}

	/**
	 * The file whose appearance starts the sample's shutdown, as Kubernetes' pre-stop
	 * hook.
	 */
	static Path preStopFile(ChildJvm sample) {
		return sample.directory().resolve("shutdown");
	}

}
