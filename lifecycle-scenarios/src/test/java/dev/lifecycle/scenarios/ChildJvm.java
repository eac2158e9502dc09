package dev.lifecycle.scenarios;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.lifecycle.core.ShutdownSignal;

import static org.awaitility.Awaitility.await;

/**
 * One real JVM running {@link ScenarioApplication} on one stack's class path, its output
 * in a log file, its run marker, reports and ports file in the scenario's directory. It
 * starts with the default dispositions of the signals Lifecycle handles
 * ({@code env --default-signal}), whatever this JVM inherited.
 * <p>
 * The class path is this module's test class path without the jars the stack leaves out.
 * With the system property {@code scenarios.lifecycle-jars} naming a directory,
 * Lifecycle's own jars (lifecycle-core, -autoconfigure, -starter) are taken from there
 * instead, to run the same suite against another build; {@code scenarios.child-args} adds
 * application arguments (space-separated), each replacing the suite's own argument of the
 * same key.
 */
final class ChildJvm {

	private static final Pattern LIFECYCLE = Pattern.compile(
			".*[/\\\\]lifecycle-(core|autoconfigure|starter)(-[^/\\\\]*\\.jar|[/\\\\]target[/\\\\]classes[/\\\\]?)$");

	private static final Duration START = Duration.ofSeconds(180);

	private final String name;

	private final Path log;

	private final Process process;

	private ChildJvm(String name, Path log, Process process) {
		this.name = name;
		this.log = log;
		this.process = process;
	}

	/**
	 * Starts the application and, when {@code portsFile} is given, waits until it wrote
	 * it.
	 * @param name the log file's name, unique within the directory
	 * @param classpath the class path
	 * @param arguments application arguments
	 */
	static ChildJvm start(String name, Path directory, String classpath, List<String> arguments) throws IOException {
		Path log = directory.resolve(name + ".log");
		String signals = Arrays.stream(ShutdownSignal.values())
			.map(ShutdownSignal::name)
			.collect(Collectors.joining(","));
		List<String> command = new ArrayList<>(List.of("env", "--default-signal=" + signals));
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		// These JVMs live for seconds: start fast on a busy machine.
		command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m", "-Xshare:auto"));
		command.addAll(List.of("-cp", classpath, ScenarioApplication.class.getName()));
		command.addAll(withExtraArguments(arguments));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		return new ChildJvm(name, log, process);
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
	 * Waits for the ports file; fails with the log when the JVM ends or takes too long.
	 */
	Properties awaitPorts(Path portsFile) throws IOException {
		try {
			await("start of " + this.name).atMost(START)
				.pollInterval(Duration.ofMillis(50))
				.until(() -> Files.exists(portsFile) || !this.process.isAlive());
		}
		catch (RuntimeException ex) {
			this.process.destroyForcibly();
			throw new IllegalStateException(this.name + " did not start within " + START, ex);
		}
		if (!Files.exists(portsFile)) {
			throw new IllegalStateException(this.name + " exited with " + this.process.exitValue() + " during start");
		}
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

	boolean isAlive() {
		return this.process.isAlive();
	}

	/** Sends SIGTERM ({@link Process#destroy()} on Linux). */
	void sigterm() {
		this.process.destroy();
	}

	/** Waits for the process to end and returns its exit code. */
	int awaitExit(Duration timeout) throws InterruptedException {
		if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new AssertionError(this.name + " still running " + timeout + " after the signal");
		}
		return this.process.exitValue();
	}

	void awaitLog(String text, Duration timeout) {
		await(this.name + " logging '" + text + "'").atMost(timeout)
			.pollInterval(Duration.ofMillis(20))
			.until(() -> log().contains(text) || !this.process.isAlive());
		if (!log().contains(text)) {
			throw new AssertionError(this.name + " ended without logging '" + text + "'");
		}
	}

	String log() {
		try {
			return Files.exists(this.log) ? Files.readString(this.log, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	Stream<String> logLines() {
		return log().lines();
	}

	String name() {
		return this.name;
	}

	Path logFile() {
		return this.log;
	}

	void destroyForcibly() throws InterruptedException {
		if (this.process.isAlive()) {
			this.process.destroyForcibly();
			this.process.waitFor(10, TimeUnit.SECONDS);
		}
	}

}
