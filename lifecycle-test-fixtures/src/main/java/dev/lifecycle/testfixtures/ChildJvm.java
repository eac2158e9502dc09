package dev.lifecycle.testfixtures;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import dev.lifecycle.core.ShutdownSignal;
import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * One real JVM a test runs, launched as a {@link JvmLaunch} says, its output in a log
 * file. It waits for what the test waits for (a log line, a file, its ports, its
 * readiness) and fails at once, with the end of its log, when the process ended first; it
 * sends the {@link ShutdownSignal signals} by pid, reads the exit code, probes its
 * servers over HTTP, and is killed on {@link #close()}. {@link ChildJvms} closes every
 * child a test started and prints their logs when the test failed.
 */
public final class ChildJvm implements AutoCloseable {

	/** The name of the application's HTTP port. */
	public static final String HTTP = "http";

	/**
	 * The name of the management server's port, when it has its own; the HTTP port
	 * otherwise.
	 */
	public static final String MANAGEMENT = "management";

	private static final int LOG_TAIL_LINES = 80;

	private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final JvmLaunch launch;

	private final Process process;

	private final Map<String, Integer> ports = new ConcurrentHashMap<>();

	private ChildJvm(JvmLaunch launch, Process process) {
		this.launch = launch;
		this.process = process;
	}

	/**
	 * Describes a child to launch.
	 * @param name its name in messages and, unless told otherwise, of its log file
	 * {@code <name>.log}, unique within the directory
	 * @param directory where its log and files live
	 * @return the launch, to configure
	 */
	public static JvmLaunch java(String name, Path directory) {
		return new JvmLaunch(name, directory);
	}

	static ChildJvm launch(JvmLaunch launch, List<String> command) throws IOException {
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(launch.log.toFile());
		if (launch.workingDirectory != null) {
			builder.directory(launch.workingDirectory.toFile());
		}
		builder.environment().putAll(launch.environment);
		return new ChildJvm(launch, builder.start());
	}

	/**
	 * Waits for every readiness step of the launch, in order.
	 * @return this child
	 * @throws IOException if a file it waits for cannot be read
	 */
	public ChildJvm awaitReady() throws IOException {
		for (Readiness step : this.launch.readiness) {
			step.await(this);
		}
		return this;
	}

	public String name() {
		return this.launch.name;
	}

	public Path directory() {
		return this.launch.directory;
	}

	public long pid() {
		return this.process.pid();
	}

	public boolean isAlive() {
		return this.process.isAlive();
	}

	public Path logFile() {
		return this.launch.log;
	}

	/**
	 * Everything the child printed so far.
	 * @return its log, empty before the file exists
	 */
	public String log() {
		try {
			return Files.exists(this.launch.log) ? Files.readString(this.launch.log, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			return "(log unreadable: " + ex + ")";
		}
	}

	public Stream<String> logLines() {
		return log().lines();
	}

	private String logTail() {
		List<String> lines = log().lines().toList();
		int from = Math.max(0, lines.size() - LOG_TAIL_LINES);
		return ((from > 0) ? "(last " + LOG_TAIL_LINES + " lines of " + this.launch.log + ")\n" : "")
				+ String.join("\n", lines.subList(from, lines.size()));
	}

	/**
	 * Waits until a condition holds; fails at once, with the end of the log, when the
	 * process ends first, and after the timeout otherwise.
	 * @param description what is awaited, for the failure's message
	 * @param timeout the bound
	 * @param condition the condition, polled
	 */
	public void awaitUntil(String description, Duration timeout, BooleanSupplier condition) {
		boolean[] held = new boolean[1];
		try {
			await(name() + ": " + description).atMost(timeout)
				.pollInterval(Duration.ofMillis(20))
				.until(() -> (held[0] = condition.getAsBoolean()) || !this.process.isAlive());
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError(name() + ": no " + description + " within " + timeout + ":\n" + logTail(), ex);
		}
		if (!held[0] && !condition.getAsBoolean()) {
			throw new AssertionError(
					name() + " exited with " + this.process.exitValue() + " before " + description + ":\n" + logTail());
		}
	}

	/** Waits, as {@link #awaitLog(String, Duration)}, for the launch's await timeout. */
	public void awaitLog(String text) {
		awaitLog(text, this.launch.awaitTimeout);
	}

	/**
	 * Waits until the log contains a text.
	 * @param text the text
	 * @param timeout the bound
	 */
	public void awaitLog(String text, Duration timeout) {
		awaitUntil("log line '" + text + "'", timeout, () -> log().contains(text));
	}

	/**
	 * Waits until a file exists.
	 * @param file the file
	 * @param timeout the bound
	 * @return the file
	 */
	public Path awaitFile(Path file, Duration timeout) {
		awaitUntil("file " + file, timeout, () -> Files.exists(file));
		return file;
	}

	/**
	 * Sends a signal by pid, with {@code kill}.
	 * @param signal the signal
	 * @throws IOException if {@code kill} cannot run
	 * @throws InterruptedException if interrupted waiting for it
	 */
	public void signal(ShutdownSignal signal) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-s", signal.name(), Long.toString(pid())).redirectErrorStream(true)
			.start();
		if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
			throw new IllegalStateException("kill -s " + signal.name() + " " + pid() + " failed: "
					+ new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
		}
	}

	/**
	 * Sends SIGTERM straight from this JVM ({@link Process#destroy()}), no process
	 * between.
	 */
	public void sigterm() {
		this.process.destroy();
	}

	/** Sends SIGKILL: no shutdown at all. Does not wait for the end. */
	public void sigkill() {
		this.process.destroyForcibly();
	}

	/**
	 * Sends SIGTERM straight from this JVM and measures until the process has ended.
	 * @param timeout the bound
	 * @return the milliseconds from the signal to the end
	 * @throws InterruptedException if interrupted waiting
	 */
	public long millisToEndAfterSigterm(Duration timeout) throws InterruptedException {
		long start = System.nanoTime();
		sigterm();
		awaitExit(timeout);
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
	}

	/** Waits, as {@link #awaitExit(Duration)}, for the launch's await timeout. */
	public int awaitExit() throws InterruptedException {
		return awaitExit(this.launch.awaitTimeout);
	}

	/**
	 * Waits for the process to end; fails, and kills it, when it takes longer.
	 * @param timeout the bound
	 * @return its exit code
	 * @throws InterruptedException if interrupted waiting
	 */
	public int awaitExit(Duration timeout) throws InterruptedException {
		if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			destroyForcibly();
			throw new AssertionError(name() + " still running after " + timeout + ":\n" + logTail());
		}
		return this.process.exitValue();
	}

	/**
	 * Kills the process, if it still runs, and waits up to ten seconds for its end.
	 * @throws InterruptedException if interrupted waiting
	 */
	public void destroyForcibly() throws InterruptedException {
		if (this.process.isAlive()) {
			this.process.destroyForcibly();
			this.process.waitFor(10, TimeUnit.SECONDS);
		}
	}

	/** Kills the process, as {@link #destroyForcibly()} does. */
	@Override
	public void close() {
		try {
			destroyForcibly();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Names a port of the child, as a module's readiness learnt it.
	 * @param name the port's name, such as {@link #HTTP}
	 * @param port the port
	 */
	public void usePort(String name, int port) {
		this.ports.put(name, port);
	}

	/**
	 * A port of the child; {@link #MANAGEMENT} is the {@link #HTTP} port unless it has
	 * its own.
	 * @param name the port's name
	 * @return the port
	 */
	public int port(String name) {
		Integer port = this.ports.get(name);
		if (port == null && MANAGEMENT.equals(name)) {
			port = this.ports.get(HTTP);
		}
		if (port == null) {
			throw new IllegalStateException(name() + " has no " + name + " port (not ready yet?)");
		}
		return port;
	}

	public int port() {
		return port(HTTP);
	}

	public int managementPort() {
		return port(MANAGEMENT);
	}

	public URI uri(String path) {
		return uri(HTTP, path);
	}

	public URI managementUri(String path) {
		return uri(MANAGEMENT, path);
	}

	public URI uri(String port, String path) {
		return URI.create("http://127.0.0.1:" + port(port) + path);
	}

	/**
	 * The status of a GET on the HTTP port.
	 * @param path the path
	 * @return the status, or -1 when the server does not answer
	 */
	public int status(String path) {
		return status(HTTP, path);
	}

	/**
	 * The status of a GET on the management port.
	 * @param path the path
	 * @return the status, or -1 when the server does not answer
	 */
	public int managementStatus(String path) {
		return status(MANAGEMENT, path);
	}

	/**
	 * The status of a GET on a named port.
	 * @param port the port's name
	 * @param path the path
	 * @return the status, or -1 when the server does not answer
	 */
	public int status(String port, String path) {
		return status(uri(port, path));
	}

	/**
	 * The status of a GET.
	 * @param uri what to get
	 * @return the status, or -1 when the server does not answer
	 */
	public static int status(URI uri) {
		try {
			return send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build()).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
	}

	public HttpResponse<String> get(String path) throws IOException {
		return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(5)).build());
	}

	/**
	 * The status of a POST without a body on the HTTP port.
	 * @param path the path
	 * @return the status, or -1 when the server does not answer
	 */
	public int post(String path) {
		try {
			return send(HttpRequest.newBuilder(uri(path))
				.timeout(Duration.ofSeconds(10))
				.POST(HttpRequest.BodyPublishers.noBody())
				.build()).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
	}

	/**
	 * POSTs JSON on the HTTP port.
	 * @param path the path
	 * @param json the body
	 * @return the response
	 * @throws IOException when the server does not answer
	 */
	public HttpResponse<String> post(String path, String json) throws IOException {
		return send(HttpRequest.newBuilder(uri(path))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build());
	}

	/**
	 * The client the probes use (HTTP/1.1 or h2c as the server agrees, a two-second
	 * connect timeout), for a test's own requests.
	 * @return the client
	 */
	public static HttpClient http() {
		return http;
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

	@Override
	public String toString() {
		return name() + " (pid " + pid() + ", " + logFile() + ")";
	}

	/** One step of waiting for a child to be ready. */
	@FunctionalInterface
	interface Readiness {

		void await(ChildJvm jvm) throws IOException;

	}

}
