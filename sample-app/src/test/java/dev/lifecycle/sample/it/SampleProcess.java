package dev.lifecycle.sample.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;

/**
 * The packaged sample jar running as a real JVM, on a free port (Tomcat's port 0, read
 * back from the log), with its own data directory, pre-stop file and run marker, its
 * output in a log file. It is launched as {@link ClassDataArchive} says: extracted, with
 * a class-data archive for a quicker start.
 */
final class SampleProcess implements AutoCloseable {

	private static final Pattern PORT = Pattern.compile("Tomcat started on port\\D*(\\d+)");

	static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final Process process;

	private final Path log;

	private final Path preStopFile;

	private int port;

	private int managementPort;

	private final boolean separateManagementPort;

	private SampleProcess(Process process, Path log, Path preStopFile, boolean separateManagementPort) {
		this.process = process;
		this.log = log;
		this.preStopFile = preStopFile;
		this.separateManagementPort = separateManagementPort;
	}

	/**
	 * Starts the jar.
	 * @param work a directory for this instance's log, pre-stop file and run marker
	 * @param dataDir the sample's data directory (shared by a restart)
	 * @param args extra {@code --name=value} arguments
	 */
	static SampleProcess start(Path work, Path dataDir, String... args) throws IOException {
		return start(work, dataDir, List.of(), args);
	}

	/**
	 * Starts the jar with JVM options of its own.
	 * @param work a directory for this instance's log, pre-stop file and run marker
	 * @param dataDir the sample's data directory (shared by a restart)
	 * @param jvmOptions options for the JVM; a heap size given here replaces the default
	 * one
	 * @param args extra {@code --name=value} arguments
	 */
	static SampleProcess start(Path work, Path dataDir, List<String> jvmOptions, String... args) throws IOException {
		Path jar = Path.of(System.getProperty("sample.jar", "target/sample-app.jar")).toAbsolutePath();
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException("The sample jar is missing: " + jar + " (run mvn package first)");
		}
		Files.createDirectories(work);
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
						// C1 only and a small heap: quicker starts on a two-core CI
						// machine, plenty for the tests.
						"-XX:TieredStopAtLevel=1"));
		if (jvmOptions.stream().noneMatch((option) -> option.startsWith("-Xmx"))) {
			command.add("-Xmx256m");
		}
		command.addAll(jvmOptions);
		command.addAll(ClassDataArchive.launch(jar));
		List<String> defaults = List.of("--server.port=0", "--sample.data-dir=" + dataDir,
				"--lifecycle.pre-stop.path=" + work.resolve("shutdown"),
				"--lifecycle.run-marker.path=" + work.resolve("running"), "--sample.status.interval=1s");
		// A property given twice on the command line would be bound as "a,b": the
		// caller's value replaces the default.
		for (String option : defaults) {
			String name = option.substring(0, option.indexOf('=') + 1);
			if (List.of(args).stream().noneMatch((arg) -> arg.startsWith(name))) {
				command.add(option);
			}
		}
		command.addAll(List.of(args));
		Path log = Files.createTempFile(work, "sample-", ".log");
		Process process = new ProcessBuilder(command).directory(work.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		boolean separate = command.stream().anyMatch((arg) -> arg.startsWith("--management.server.port="));
		return new SampleProcess(process, log, work.resolve("shutdown"), separate);
	}

	/** Waits for the port in the log and readiness 200. */
	SampleProcess awaitReady() {
		await("port of " + this.log).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
			if (!this.process.isAlive()) {
				throw new IllegalStateException("The sample exited with " + this.process.exitValue() + ":\n" + log());
			}
			// The application's server starts first, then the management server when it
			// has its own port.
			Matcher matcher = PORT.matcher(log());
			if (matcher.find()) {
				int first = Integer.parseInt(matcher.group(1));
				if (!this.separateManagementPort) {
					this.port = first;
					this.managementPort = first;
					return true;
				}
				if (matcher.find()) {
					this.port = first;
					this.managementPort = Integer.parseInt(matcher.group(1));
					return true;
				}
			}
			return false;
		});
		await("readiness").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> managementStatus("/actuator/health/readiness") == 200);
		return this;
	}

	int managementPort() {
		return this.managementPort;
	}

	URI managementUri(String path) {
		return URI.create("http://127.0.0.1:" + this.managementPort + path);
	}

	/**
	 * GET status on the management port (the application's port unless it has its own),
	 * or -1.
	 */
	int managementStatus(String path) {
		try {
			HttpRequest request = HttpRequest.newBuilder(managementUri(path))
				.timeout(Duration.ofSeconds(5))
				.GET()
				.build();
			return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

	long pid() {
		return this.process.pid();
	}

	int port() {
		return this.port;
	}

	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	Path preStopFile() {
		return this.preStopFile;
	}

	/** GET status, or -1 when the process does not answer. */
	int status(String path) {
		try {
			return get(path).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
	}

	HttpResponse<String> get(String path) throws IOException {
		HttpRequest request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(5)).GET().build();
		try {
			return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

	HttpResponse<String> post(String path, String body) throws IOException {
		HttpRequest request = HttpRequest.newBuilder(uri(path))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		try {
			return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

	/** SIGTERM, as Kubernetes sends it. */
	void sigterm() throws IOException, InterruptedException {
		signal("TERM");
	}

	/** SIGKILL: no shutdown at all. */
	void sigkill() {
		this.process.destroyForcibly();
	}

	/**
	 * Any signal by name, as {@code kill -s} takes it: {@code TERM}, {@code KILL}, ....
	 */
	void signal(String name) throws IOException, InterruptedException {
		int code = new ProcessBuilder("kill", "-s", name, Long.toString(this.process.pid())).inheritIO()
			.start()
			.waitFor();
		if (code != 0) {
			throw new IllegalStateException("kill -s " + name + " " + this.process.pid() + " failed with " + code);
		}
	}

	/** Waits for the exit; fails (and kills the process) if it takes longer. */
	int awaitExit(Duration timeout) throws InterruptedException {
		if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			this.process.destroyForcibly();
			throw new AssertionError("The sample did not exit within " + timeout + "; log:\n" + log());
		}
		return this.process.exitValue();
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	String log() {
		try {
			return Files.readString(this.log, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "(log unreadable: " + ex + ")";
		}
	}

	Path logFile() {
		return this.log;
	}

	@Override
	public void close() {
		if (this.process.isAlive()) {
			this.process.destroyForcibly();
			try {
				this.process.waitFor(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
