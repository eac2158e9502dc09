package dev.lifecycle.autoconfigure.process;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import dev.lifecycle.core.ShutdownSignal;
import org.junit.jupiter.api.Assumptions;

import static org.awaitility.Awaitility.await;

/**
 * One real JVM running {@link ProcessTestApplication}, with the test classpath, its
 * output in a log file, its own pre-stop file and run marker in a per-test directory.
 */
final class AppProcess {

	private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	/**
	 * The signals whose disposition the tests assert: every child starts with their
	 * defaults.
	 */
	private static final String SIGNALS = Arrays.stream(ShutdownSignal.values())
		.map(ShutdownSignal::name)
		.collect(Collectors.joining(","));

	/**
	 * Resets the signals the tests depend on to their defaults in the child, whatever
	 * this JVM inherited ({@code nohup} ignores one, some CI agents ignore more): a
	 * disposition ignored at exec is inherited, and a shell cannot undo it, but
	 * {@code env --default-signal} can.
	 */
	private static final List<String> DEFAULT_SIGNALS = List.of("env", "--default-signal=" + SIGNALS);

	private static final boolean DEFAULT_SIGNALS_AVAILABLE = defaultSignalsAvailable();

	private final String name;

	private final Path directory;

	private final Path log;

	private final Process process;

	private volatile int port;

	private AppProcess(String name, Path directory, Path log, Process process) {
		this.name = name;
		this.directory = directory;
		this.log = log;
		this.process = process;
	}

	/**
	 * Starts the application and waits until it is ready (its port file exists).
	 * @param name a name for the log file, unique within the directory
	 * @param directory where the pre-stop file, run marker, port file and log live
	 * @param arguments extra application arguments, such as
	 * {@code --process-test.drain=3s}
	 */
	static AppProcess start(String name, Path directory, String... arguments) throws IOException {
		return awaitStart(launch(name, directory, List.of(), arguments));
	}

	/**
	 * Starts another main class on the same classpath and arguments, and waits until it
	 * is ready (its port file exists).
	 */
	static AppProcess start(Class<?> main, String name, Path directory, String... arguments) throws IOException {
		return awaitStart(launch(main, name, directory, List.of(), arguments));
	}

	/**
	 * Starts the application as a parent that ignores a signal would: through a shell
	 * that sets the signal to be ignored ({@code trap '' TERM}, as {@code nohup} does for
	 * HUP) and then replaces itself with the JVM, which inherits the ignored signal.
	 */
	static AppProcess startIgnoring(String signal, String name, Path directory, String... arguments)
			throws IOException {
		return awaitStart(launch(name, directory,
				List.of("/bin/sh", "-c", "trap '' " + signal + "; exec \"$0\" \"$@\""), arguments));
	}

	private static AppProcess awaitStart(AppProcess app) throws IOException {
		String name = app.name;
		Path directory = app.directory;
		Path portFile = directory.resolve(name + ".port");
		Process process = app.process;
		try {
			await("start of " + name).atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> Files.exists(portFile) || !process.isAlive());
		}
		catch (RuntimeException ex) {
			process.destroyForcibly();
			throw new IllegalStateException(name + " did not start:\n" + app.log(), ex);
		}
		if (!process.isAlive()) {
			throw new IllegalStateException(
					name + " exited with " + process.exitValue() + " during start:\n" + app.log());
		}
		app.port = Integer.parseInt(Files.readString(portFile).trim());
		return app;
	}

	/**
	 * Starts the application with JVM options, such as
	 * {@code -Dspring.context.exit=onRefresh}, without waiting for it to be ready:
	 * through a shell that replaces itself with the JVM and puts the options right after
	 * the {@code java} command.
	 */
	static AppProcess launchWithJvmOptions(String name, Path directory, List<String> jvmOptions, String... arguments)
			throws IOException {
		StringBuilder options = new StringBuilder();
		for (String option : jvmOptions) {
			options.append(" '").append(option.replace("'", "'\\''")).append('\'');
		}
		return launch(name, directory, List.of("/bin/sh", "-c", "exec \"$0\"" + options + " \"$@\""), arguments);
	}

	/**
	 * Starts the application without waiting for it to be ready, to signal it during
	 * start-up.
	 */
	static AppProcess launch(String name, Path directory, String... arguments) throws IOException {
		return launch(name, directory, List.of(), arguments);
	}

	/** Starts another main class without waiting for it to be ready. */
	static AppProcess launch(Class<?> main, String name, Path directory, String... arguments) throws IOException {
		return launch(main, name, directory, List.of(), arguments);
	}

	private static AppProcess launch(String name, Path directory, List<String> prefix, String... arguments)
			throws IOException {
		return launch(ProcessTestApplication.class, name, directory, prefix, arguments);
	}

	private static AppProcess launch(Class<?> main, String name, Path directory, List<String> prefix,
			String... arguments) throws IOException {
		Path log = directory.resolve(name + ".log");
		Path portFile = directory.resolve(name + ".port");
		Files.deleteIfExists(portFile);
		Assumptions.assumeTrue(DEFAULT_SIGNALS_AVAILABLE, "the child JVM needs default signal dispositions, and "
				+ "this machine's env has no --default-signal (GNU coreutils 8.31 or later)");
		List<String> command = new ArrayList<>(DEFAULT_SIGNALS);
		command.addAll(prefix);
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		// Start fast on a busy machine: these JVMs live for seconds.
		command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m", "-Xshare:auto"));
		command.addAll(List.of("-cp", classpath(), main.getName()));
		command.addAll(List.of("--server.port=0", "--spring.application.name=process-test",
				"--spring.main.banner-mode=off", "--management.endpoints.web.exposure.include=health,prometheus",
				"--lifecycle.pre-stop.path=" + preStopFile(directory),
				"--lifecycle.run-marker.path=" + runMarker(directory), "--process-test.port-file=" + portFile));
		command.addAll(List.of(arguments));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		return new AppProcess(name, directory, log, process);
	}

	private static boolean defaultSignalsAvailable() {
		List<String> probe = new ArrayList<>(DEFAULT_SIGNALS);
		probe.add("true");
		try {
			Process process = new ProcessBuilder(probe).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * The full test classpath: under Surefire {@code java.class.path} may be a single
	 * manifest-only jar, while {@code surefire.test.class.path} always lists every entry.
	 */
	private static String classpath() {
		String surefire = System.getProperty("surefire.test.class.path");
		return (surefire != null && !surefire.isBlank()) ? surefire : System.getProperty("java.class.path");
	}

	static Path preStopFile(Path directory) {
		return directory.toAbsolutePath().resolve("shutdown");
	}

	static Path runMarker(Path directory) {
		return directory.toAbsolutePath().resolve("marker");
	}

	String name() {
		return this.name;
	}

	long pid() {
		return this.process.pid();
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	/** Sends a signal with {@code kill}, e.g. {@code "TERM"} or {@code "INT"}. */
	void signal(String signal) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).redirectErrorStream(true).start();
		if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
			throw new IllegalStateException("kill -" + signal + " " + pid() + " failed: "
					+ new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
		}
	}

	/**
	 * Sends SIGTERM straight from this JVM (no {@code kill} process in between) and
	 * returns the milliseconds until the process has ended.
	 */
	long millisToEndAfterSigterm(Duration timeout) throws InterruptedException {
		long start = System.nanoTime();
		this.process.destroy();
		if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new AssertionError(this.name + " still running after " + timeout + ":\n" + log());
		}
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
	}

	/** Waits for the process to end and returns its exit code. */
	int awaitExit(Duration timeout) throws InterruptedException {
		if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new AssertionError(this.name + " still running after " + timeout + ":\n" + log());
		}
		return this.process.exitValue();
	}

	void awaitLog(String text, Duration timeout) {
		await(this.name + " logging '" + text + "'").atMost(timeout)
			.pollInterval(Duration.ofMillis(20))
			.until(() -> log().contains(text));
	}

	/** The HTTP status of a GET, or -1 when the server does not answer. */
	int status(String path) {
		try {
			return get(path).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
	}

	/**
	 * The HTTP status of a GET to the separate management server, or -1 when it does not
	 * answer.
	 */
	int managementStatus(String path) {
		try {
			Path portFile = this.directory.resolve(this.name + ".port.management");
			int managementPort = Integer.parseInt(Files.readString(portFile).trim());
			return send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort + path))
				.timeout(Duration.ofSeconds(5))
				.build()).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
	}

	/**
	 * The HTTP status of a GET to another server of the process, whose port is in the
	 * file next to the port file with this suffix; -1 when it does not answer.
	 */
	int status(String suffix, String path) {
		try {
			Path portFile = this.directory.resolve(this.name + ".port" + suffix);
			int port = Integer.parseInt(Files.readString(portFile).trim());
			return send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
				.timeout(Duration.ofSeconds(5))
				.build()).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
	}

	/** The HTTP status of a POST, or -1 when the server does not answer. */
	int post(String path) {
		try {
			return send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
				.timeout(Duration.ofSeconds(10))
				.POST(HttpRequest.BodyPublishers.noBody())
				.build()).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
	}

	private static HttpResponse<String> send(HttpRequest request) throws IOException {
		try {
			return http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

	HttpResponse<String> get(String path) throws IOException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.timeout(Duration.ofSeconds(5))
			.build();
		try {
			return http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
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

	File logFile() {
		return this.log.toFile();
	}

	void destroyForcibly() throws InterruptedException {
		if (this.process.isAlive()) {
			this.process.destroyForcibly();
			this.process.waitFor(10, TimeUnit.SECONDS);
		}
	}

	Path directory() {
		return this.directory;
	}

}
