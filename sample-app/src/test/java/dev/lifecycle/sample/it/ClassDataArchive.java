package dev.lifecycle.sample.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How the process tests launch the sample jar: from its extracted form
 * ({@code -Djarmode=tools
 * extract}, the layout deploy/aot-cache's image runs) with an application class-data
 * archive made by one training run per test JVM, as {@code scripts/torture.sh} does for
 * its restarts. Class loading only: the same classes and configuration run, about a third
 * sooner, and nothing a test checks changes. When the archive cannot be made (or
 * {@code -Dsample.cds=false}), the jar is launched as it is.
 */
final class ClassDataArchive {

	private static List<String> launch;

	private ClassDataArchive() {
	}

	/** The JVM options and the {@code -jar} argument that launch {@code jar}. */
	static synchronized List<String> launch(Path jar) {
		if (launch == null) {
			launch = Boolean.parseBoolean(System.getProperty("sample.cds", "true")) ? make(jar)
					: List.of("-jar", jar.toString());
		}
		return launch;
	}

	private static List<String> make(Path jar) {
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		Path dir = jar.resolveSibling("it-cds").resolve("jvm-" + ProcessHandle.current().pid());
		// The extraction refuses a destination that is not empty: it gets a directory of
		// its own.
		Path application = dir.resolve("application");
		Path extracted = application.resolve(jar.getFileName());
		Path archive = dir.resolve("app.jsa");
		try {
			Files.createDirectories(dir);
			long started = System.nanoTime();
			if (run(dir.resolve("extract.log"), java.toString(), "-Djarmode=tools", "-jar", jar.toString(), "extract",
					"--destination", application.toString())
					&& run(dir.resolve("train.log"), java.toString(), "-XX:TieredStopAtLevel=1", "-Xmx256m",
							"-XX:ArchiveClassesAtExit=" + archive, "-Dspring.context.exit=onRefresh", "-jar",
							extracted.toString(), "--server.port=0", "--sample.data-dir=" + dir.resolve("train"),
							"--lifecycle.pre-stop.enabled=false", "--lifecycle.run-marker.enabled=false")
					&& Files.isRegularFile(archive) && Files.size(archive) > 0) {
				System.out.printf("process tests: class-data archive %s made in %d ms%n", archive,
						TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
				return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off", "-jar",
						extracted.toString());
			}
		}
		catch (IOException ex) {
			System.out.println("process tests: no class-data archive (" + ex + ")");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		System.out.println("process tests: no class-data archive (see " + dir + "); launching " + jar);
		return List.of("-jar", jar.toString());
	}

	private static boolean run(Path log, String... command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		if (!process.waitFor(5, TimeUnit.MINUTES)) {
			process.destroyForcibly();
			return false;
		}
		return process.exitValue() == 0;
	}

}
