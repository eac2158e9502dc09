package dev.lifecycle.scenarios;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

import dev.lifecycle.testfixtures.ChildJvm;

/**
 * How the suite launches {@link ScenarioApplication} on one stack's class path as a
 * {@link ChildJvm}, its log, run marker, reports and ports file in the scenario's
 * directory, with the default dispositions of the signals Lifecycle handles.
 * <p>
 * The class path is this module's test class path without the jars the stack leaves out.
 * With the system property {@code scenarios.lifecycle-jars} naming a directory,
 * Lifecycle's own jars (lifecycle-core, -autoconfigure, -starter) are taken from there
 * instead, to run the same suite against another build; {@code scenarios.child-args} adds
 * application arguments (space-separated), each replacing the suite's own argument of the
 * same key.
 */
final class ScenarioJvm {

	private static final Pattern LIFECYCLE = Pattern.compile(
			".*[/\\\\]lifecycle-(core|autoconfigure|starter)(-[^/\\\\]*\\.jar|[/\\\\]target[/\\\\]classes[/\\\\]?)$");

	private static final Duration START = Duration.ofSeconds(180);

	private ScenarioJvm() {
	}

	/**
	 * Launches the application without waiting for it.
	 * @param name the log file's name, unique within the directory
	 * @param classpath the class path
	 * @param arguments application arguments
	 */
	static ChildJvm start(String name, Path directory, String classpath, List<String> arguments) throws IOException {
		return ChildJvm.java(name, directory)
			.mainClass(ScenarioApplication.class.getName(), classpath)
			.defaultSignals()
			.arguments(withExtraArguments(arguments))
			.launch();
	}

	/**
	 * The arguments with those of {@code scenarios.child-args}: one of these replaces an
	 * argument of the same key (Spring Boot would join two values of one key).
	 */
	private static List<String> withExtraArguments(List<String> arguments) {
		Map<String, String> byKey = new LinkedHashMap<>();
		List<String> extra = new ArrayList<>();
		String property = System.getProperty("scenarios.child-args", "").trim();
		if (!property.isEmpty()) {
			extra.addAll(Arrays.asList(property.split("\\s+")));
		}
		for (String argument : arguments) {
			byKey.put(key(argument), argument);
		}
		for (String argument : extra) {
			byKey.put(key(argument), argument);
		}
		return new ArrayList<>(byKey.values());
	}

	private static String key(String argument) {
		int equals = argument.indexOf('=');
		return (equals < 0) ? argument : argument.substring(0, equals);
	}

	/**
	 * Waits for the ports file; fails with the end of the log when the JVM ends or takes
	 * too long.
	 */
	static Properties awaitPorts(ChildJvm child, Path portsFile) throws IOException {
		child.awaitFile(portsFile, START);
		Properties ports = new Properties();
		try (var reader = Files.newBufferedReader(portsFile)) {
			ports.load(reader);
		}
		return ports;
	}

	/**
	 * This module's test class path without the jars whose names start with one of the
	 * given prefixes, with Lifecycle's own jars replaced when
	 * {@code scenarios.lifecycle-jars} says so.
	 */
	static String classpath(List<String> leftOut) {
		String surefire = System.getProperty("surefire.test.class.path");
		String all = (surefire != null && !surefire.isBlank()) ? surefire : System.getProperty("java.class.path");
		String replacement = System.getProperty("scenarios.lifecycle-jars", "").trim();
		List<String> entries = new ArrayList<>();
		boolean replaced = false;
		for (String entry : all.split(File.pathSeparator)) {
			String file = Path.of(entry).getFileName().toString();
			if (leftOut.stream().anyMatch(file::startsWith)) {
				continue;
			}
			if (!replacement.isEmpty() && LIFECYCLE.matcher(entry).matches()) {
				if (!replaced) {
					entries.addAll(lifecycleJars(Path.of(replacement)));
					replaced = true;
				}
				continue;
			}
			entries.add(entry);
		}
		return String.join(File.pathSeparator, entries);
	}

	private static List<String> lifecycleJars(Path directory) {
		List<String> jars = new ArrayList<>();
		try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory,
				"lifecycle-{core,autoconfigure,starter}-*.jar")) {
			stream.forEach((jar) -> {
				String name = jar.getFileName().toString();
				if (!name.endsWith("-sources.jar") && !name.endsWith("-javadoc.jar")) {
					jars.add(jar.toAbsolutePath().toString());
				}
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		if (jars.size() < 2) {
			throw new IllegalStateException("scenarios.lifecycle-jars=" + directory
					+ " holds no lifecycle-core and lifecycle-autoconfigure jars");
		}
		return jars;
	}

}
