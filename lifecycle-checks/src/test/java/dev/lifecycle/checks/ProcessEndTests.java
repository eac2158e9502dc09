package dev.lifecycle.checks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JVM is ended in one place: whoever decides it (an application's
 * {@code ShutdownExit}, the JVM's {@code SignalOwner}), the halt and the exit are called
 * only by {@code ProcessExit}, the JVM's one way out, and by {@code LifecycleExit}, the
 * exit it hands the code to. A second place that ends the process would be a second owner
 * of it.
 */
class ProcessEndTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final List<String> MODULES = List.of("lifecycle-core", "lifecycle-autoconfigure");

	private static final List<String> ENDINGS = List.of("Runtime.getRuntime().halt(", "System.exit(", "System::exit",
			"Runtime.getRuntime().exit(");

	@Test
	void theJvmIsHaltedAndExitedOnlyThroughItsOneWayOut() throws IOException {
		Set<String> ending = new TreeSet<>();
		for (String module : MODULES) {
			try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src/main/java"))) {
				for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
					if (endsTheJvm(file)) {
						ending.add(file.getFileName().toString());
					}
				}
			}
		}
		assertThat(ending).containsExactly("LifecycleExit.java", "ProcessExit.java");
	}

	/** Whether code in the file (not its comments) halts or exits the JVM. */
	private static boolean endsTheJvm(Path file) throws IOException {
		for (String line : Files.readAllLines(file)) {
			String code = line.strip();
			if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) {
				continue;
			}
			if (ENDINGS.stream().anyMatch(code::contains)) {
				return true;
			}
		}
		return false;
	}

}
