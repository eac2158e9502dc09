package dev.lifecycle.testfixtures;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.lifecycle.core.ShutdownSignal;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

/**
 * How a {@link ChildJvm} is launched: what it runs (a main class on a class path, or a
 * launcher such as {@code -jar app.jar}), its JVM options, application arguments and
 * environment, where its output goes, the signal dispositions it starts with, and what
 * "ready" means for it. {@link #launch()} returns at once; {@link #start()} also waits
 * until the child is ready and fails with its log when it ends or takes too long first.
 */
public final class JvmLaunch {

	/**
	 * The JVM options a child gets unless told otherwise: C1 only, the serial collector,
	 * a small heap and the JDK's class-data archive, for a quick start on a busy two-core
	 * machine; these JVMs live for seconds.
	 */
	public static final List<String> QUICK_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
			"-Xshare:auto");

	private static final String SIGNALS = Arrays.stream(ShutdownSignal.values())
		.map(ShutdownSignal::name)
		.collect(Collectors.joining(","));

	/**
	 * Resets the signals Lifecycle handles to their defaults in the child, whatever this
	 * JVM inherited ({@code nohup} ignores one, some CI agents ignore more): a
	 * disposition ignored at exec is inherited, and a shell cannot undo it, but
	 * {@code env --default-signal} can.
	 */
	private static final List<String> DEFAULT_SIGNALS = List.of("env", "--default-signal=" + SIGNALS);

	private static @Nullable Boolean defaultSignalsAvailable;

	final String name;

	final Path directory;

	private List<String> launcher = List.of();

	private List<String> baseJvmOptions = QUICK_START;

	private final List<String> jvmOptions = new ArrayList<>();

	private final Map<String, String> arguments = new LinkedHashMap<>();

	final Map<String, String> environment = new LinkedHashMap<>();

	@Nullable Path workingDirectory;

	Path log;

	private boolean defaultSignals;

	private @Nullable ShutdownSignal ignored;

	final List<ChildJvm.Readiness> readiness = new ArrayList<>();

	private final List<Path> leftByEarlierRuns = new ArrayList<>();

	Duration startTimeout = Duration.ofSeconds(60);

	Duration awaitTimeout = Duration.ofSeconds(120);

	JvmLaunch(String name, Path directory) {
		this.name = name;
		this.directory = directory;
		this.log = directory.resolve(name + ".log");
	}

	/**
	 * Runs a main class on this JVM's test class path.
	 * @param main the class whose {@code main} runs
	 * @return this launch
	 */
	public JvmLaunch mainClass(Class<?> main) {
		return mainClass(main.getName(), testClassPath());
	}

	/**
	 * Runs a main class on a class path.
	 * @param main the class's name
	 * @param classPath the class path
	 * @return this launch
	 */
	public JvmLaunch mainClass(String main, String classPath) {
		return launcher(List.of("-cp", classPath, main));
	}

	/**
	 * Runs what the arguments that follow the JVM options say, e.g. {@code -jar app.jar},
	 * with any options that belong to it first.
	 * @param launcher the arguments
	 * @return this launch
	 */
	public JvmLaunch launcher(List<String> launcher) {
		this.launcher = List.copyOf(launcher);
		return this;
	}

	/**
	 * Replaces {@link #QUICK_START}.
	 * @param options the JVM options every child of this launch starts with
	 * @return this launch
	 */
	public JvmLaunch baseJvmOptions(List<String> options) {
		this.baseJvmOptions = List.copyOf(options);
		return this;
	}

	/**
	 * Adds JVM options after the base ones; a heap size given here replaces the base one.
	 * @param options options such as {@code -Dspring.context.exit=onRefresh}
	 * @return this launch
	 */
	public JvmLaunch jvmOptions(List<String> options) {
		this.jvmOptions.addAll(options);
		return this;
	}

	/**
	 * Adds application arguments. An argument {@code --key=value} replaces an earlier one
	 * of the same key (Spring Boot would bind both, joined), so a caller's value replaces
	 * a default the module's launch gave.
	 * @param arguments the arguments
	 * @return this launch
	 */
	public JvmLaunch arguments(String... arguments) {
		return arguments(List.of(arguments));
	}

	/**
	 * Adds application arguments, as {@link #arguments(String...)} does.
	 * @param arguments the arguments
	 * @return this launch
	 */
	public JvmLaunch arguments(List<String> arguments) {
		for (String argument : arguments) {
			String key = key(argument);
			this.arguments.remove(key);
			this.arguments.put(key, argument);
		}
		return this;
	}

	private static String key(String argument) {
		int equals = argument.indexOf('=');
		return (argument.startsWith("--") && equals > 0) ? argument.substring(0, equals) : argument;
	}

	/**
	 * Sets an environment variable of the child.
	 * @param name the variable
	 * @param value its value
	 * @return this launch
	 */
	public JvmLaunch environment(String name, String value) {
		this.environment.put(name, value);
		return this;
	}

	/**
	 * Runs the child in a directory other than this JVM's.
	 * @param directory its working directory
	 * @return this launch
	 */
	public JvmLaunch workingDirectory(Path directory) {
		this.workingDirectory = directory;
		return this;
	}

	/**
	 * Writes the child's output (standard output and error) to a file other than
	 * {@code <name>.log} in the directory.
	 * @param log the file
	 * @return this launch
	 */
	public JvmLaunch logFile(Path log) {
		this.log = log;
		return this;
	}

	/**
	 * Starts the child with the default dispositions of every {@link ShutdownSignal},
	 * whatever this JVM inherited. Where {@code env} cannot do that (GNU coreutils older
	 * than 8.31), the test is aborted as not applicable rather than failed.
	 * @return this launch
	 */
	public JvmLaunch defaultSignals() {
		this.defaultSignals = true;
		return this;
	}

	/**
	 * Starts the child as a parent that ignores a signal would: through a shell that sets
	 * it to be ignored ({@code trap '' TERM}, as {@code nohup} does for HUP) and then
	 * replaces itself with the JVM, which inherits the ignored signal.
	 * @param signal the signal the child starts ignoring
	 * @return this launch
	 */
	public JvmLaunch ignoring(ShutdownSignal signal) {
		this.ignored = signal;
		return this;
	}

	/**
	 * Ready once the child wrote its HTTP port into a file.
	 * @param portFile the file, deleted before the launch
	 * @return this launch
	 */
	public JvmLaunch readyWhenPortFile(Path portFile) {
		this.leftByEarlierRuns.add(portFile);
		this.readiness.add((jvm) -> {
			jvm.awaitFile(portFile, this.startTimeout);
			jvm.usePort(ChildJvm.HTTP, Integer.parseInt(Files.readString(portFile).trim()));
		});
		return this;
	}

	/**
	 * Ready once a file exists.
	 * @param file the file, deleted before the launch
	 * @return this launch
	 */
	public JvmLaunch readyWhenFile(Path file) {
		this.leftByEarlierRuns.add(file);
		this.readiness.add((jvm) -> jvm.awaitFile(file, this.startTimeout));
		return this;
	}

	/**
	 * Ready once the log holds a line.
	 * @param text what the line contains
	 * @return this launch
	 */
	public JvmLaunch readyWhenLogged(String text) {
		this.readiness.add((jvm) -> jvm.awaitLog(text, this.startTimeout));
		return this;
	}

	/**
	 * Ready once the log names the ports: the pattern's first group, found once per name,
	 * in order (a server's "started on port" line, the application's server first).
	 * @param pattern the line, its port as the first group
	 * @param names the ports' names, such as {@link ChildJvm#HTTP} and
	 * {@link ChildJvm#MANAGEMENT}
	 * @return this launch
	 */
	public JvmLaunch readyWhenPortsLogged(Pattern pattern, String... names) {
		this.readiness.add((jvm) -> jvm.awaitUntil("ports in " + this.log, this.startTimeout, () -> {
			Matcher matcher = pattern.matcher(jvm.log());
			List<Integer> ports = new ArrayList<>();
			while (ports.size() < names.length && matcher.find()) {
				ports.add(Integer.parseInt(matcher.group(1)));
			}
			if (ports.size() < names.length) {
				return false;
			}
			for (int i = 0; i < names.length; i++) {
				jvm.usePort(names[i], ports.get(i));
			}
			return true;
		}));
		return this;
	}

	/**
	 * Ready once a GET answers a status, such as a readiness probe's 200.
	 * @param port the port's name
	 * @param path the path
	 * @param status the status
	 * @return this launch
	 */
	public JvmLaunch readyWhenStatus(String port, String path, int status) {
		this.readiness.add((jvm) -> jvm.awaitUntil(path + " answering " + status, this.startTimeout,
				() -> jvm.status(port, path) == status));
		return this;
	}

	/**
	 * How long each step of {@link ChildJvm#awaitReady()} may take; 60 s unless told.
	 * @param timeout the bound
	 * @return this launch
	 */
	public JvmLaunch startTimeout(Duration timeout) {
		this.startTimeout = timeout;
		return this;
	}

	/**
	 * How long {@link ChildJvm#awaitLog(String)} and {@link ChildJvm#awaitExit()} wait;
	 * 120 s unless told.
	 * @param timeout the bound
	 * @return this launch
	 */
	public JvmLaunch awaitTimeout(Duration timeout) {
		this.awaitTimeout = timeout;
		return this;
	}

	/**
	 * Launches the child without waiting for it to be ready.
	 * @return the child
	 * @throws IOException if it cannot be launched
	 */
	public ChildJvm launch() throws IOException {
		if (this.launcher.isEmpty()) {
			throw new IllegalStateException(this.name + ": no main class or launcher");
		}
		if (this.defaultSignals) {
			Assumptions.assumeTrue(defaultSignalsAvailable(), "the child JVM needs default signal dispositions, "
					+ "and this machine's env has no --default-signal (GNU coreutils 8.31 or later)");
		}
		Files.createDirectories(this.log.toAbsolutePath().getParent());
		for (Path file : this.leftByEarlierRuns) {
			Files.deleteIfExists(file);
		}
		return ChildJvm.launch(this, command());
	}

	/**
	 * Launches the child and waits until it is ready.
	 * @return the child, ready
	 * @throws IOException if it cannot be launched
	 */
	public ChildJvm start() throws IOException {
		return launch().awaitReady();
	}

	List<String> command() {
		List<String> command = new ArrayList<>();
		if (this.defaultSignals) {
			command.addAll(DEFAULT_SIGNALS);
		}
		if (this.ignored != null) {
			command.addAll(List.of("/bin/sh", "-c", "trap '' " + this.ignored.name() + "; exec \"$0\" \"$@\""));
		}
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		boolean ownHeap = this.jvmOptions.stream().anyMatch((option) -> option.startsWith("-Xmx"));
		this.baseJvmOptions.stream().filter((option) -> !(ownHeap && option.startsWith("-Xmx"))).forEach(command::add);
		command.addAll(this.jvmOptions);
		command.addAll(this.launcher);
		command.addAll(this.arguments.values());
		return command;
	}

	/**
	 * The full test class path: under Surefire {@code java.class.path} may be a single
	 * manifest-only jar, while {@code surefire.test.class.path} always lists every entry.
	 * @return the class path
	 */
	public static String testClassPath() {
		String surefire = System.getProperty("surefire.test.class.path");
		return (surefire != null && !surefire.isBlank()) ? surefire : System.getProperty("java.class.path");
	}

	private static synchronized boolean defaultSignalsAvailable() {
		if (defaultSignalsAvailable == null) {
			List<String> probe = new ArrayList<>(DEFAULT_SIGNALS);
			probe.add("true");
			try {
				Process process = new ProcessBuilder(probe).redirectErrorStream(true)
					.redirectOutput(ProcessBuilder.Redirect.DISCARD)
					.start();
				defaultSignalsAvailable = process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
			}
			catch (IOException ex) {
				defaultSignalsAvailable = false;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return defaultSignalsAvailable;
	}

}
