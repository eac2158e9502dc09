package dev.lifecycle.autoconfigure.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.JvmLaunch;

/**
 * How this package's process tests launch {@link ProcessTestApplication} (or another main
 * class) as a {@link ChildJvm}: on the test class path with the default dispositions of
 * the signals, a free port, its own pre-stop file and run marker in the test's directory,
 * ready once it wrote its port file {@code <name>.port}.
 */
final class ProcessTestApps {

	private ProcessTestApps() {
	}

	/**
	 * Launches {@link ProcessTestApplication}.
	 * @param name a name for the log and port files, unique within the directory
	 * @param directory where the pre-stop file, run marker, port file and log live
	 * @param arguments extra application arguments, such as
	 * {@code --process-test.drain=3s}
	 */
	static JvmLaunch app(String name, Path directory, String... arguments) {
		return app(ProcessTestApplication.class, name, directory, arguments);
	}

	/** Launches another main class with the same class path and arguments. */
	static JvmLaunch app(Class<?> main, String name, Path directory, String... arguments) {
		Path portFile = directory.resolve(name + ".port");
		return ChildJvm.java(name, directory)
			.mainClass(main)
			.defaultSignals()
			.arguments("--server.port=0", "--spring.application.name=process-test", "--spring.main.banner-mode=off",
					"--management.endpoints.web.exposure.include=health,prometheus",
					"--lifecycle.pre-stop.path=" + preStopFile(directory),
					"--lifecycle.run-marker.path=" + runMarker(directory), "--process-test.port-file=" + portFile)
			.arguments(arguments)
			.readyWhenPortFile(portFile);
	}

	static Path preStopFile(Path directory) {
		return directory.toAbsolutePath().resolve("shutdown");
	}

	static Path runMarker(Path directory) {
		return directory.toAbsolutePath().resolve("marker");
	}

	/**
	 * The status of a GET to another server of the process (the management server's
	 * suffix is {@code .management}), whose port is in the file next to the port file
	 * with this suffix.
	 * @return the status, or -1 when it does not answer
	 */
	static int status(ChildJvm app, String suffix, String path) {
		try {
			Path portFile = app.directory().resolve(app.name() + ".port" + suffix);
			app.usePort(suffix, Integer.parseInt(Files.readString(portFile).trim()));
			return app.status(suffix, path);
		}
		catch (IOException ex) {
			return -1;
		}
	}

}
