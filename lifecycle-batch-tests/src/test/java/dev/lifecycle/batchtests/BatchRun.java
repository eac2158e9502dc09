package dev.lifecycle.batchtests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.test.ShutdownReports;

import static org.awaitility.Awaitility.await;

/**
 * One real JVM running {@link BatchTestApplication} with the test classpath, against the
 * H2 file database and the run marker of its directory, which outlive it for the next
 * run; and what the test reads once it is gone: the job repository's rows, the items
 * written, the shutdown report.
 */
final class BatchRun {

	private final String name;

	private final Path log;

	private final Process process;

	private BatchRun(String name, Path log, Process process) {
		this.name = name;
		this.log = log;
		this.process = process;
	}

	/**
	 * Launches the job with parameter {@code run=1}, so every run of a directory is the
	 * same job instance.
	 */
	static BatchRun launch(String name, Path directory, String... arguments) throws IOException {
		return launch(name, directory, url(directory), directory.toAbsolutePath().resolve("marker"), arguments);
	}

	/**
	 * Launches the job with parameter {@code run=1} against the database of the URL, with
	 * the run marker given; its log goes into the directory.
	 */
	static BatchRun launch(String name, Path directory, String url, Path marker, String... arguments)
			throws IOException {
		Path log = directory.resolve(name + ".log");
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m", "-Xshare:auto"));
		command.addAll(List.of("-cp", classpath(), BatchTestApplication.class.getName()));
		command.add("--spring.datasource.url=" + url);
		command.add("--spring.datasource.username=sa");
		command.add("--lifecycle.run-marker.path=" + marker);
		command.addAll(List.of(arguments));
		command.add("run=1");
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		return new BatchRun(name, log, process);
	}

	private static String url(Path directory) {
		// Each commit reaches the file at once, so a SIGKILL loses nothing that was
		// committed.
		return "jdbc:h2:file:" + directory.toAbsolutePath().resolve("db") + ";WRITE_DELAY=0";
	}

	/**
	 * The directory's database, served to other processes by the first that opens it
	 * (H2's automatic mixed mode): one job repository for several JVMs at once.
	 */
	static String sharedUrl(Path directory) {
		return url(directory) + ";AUTO_SERVER=TRUE";
	}

	private static String classpath() {
		String surefire = System.getProperty("surefire.test.class.path");
		return (surefire != null && !surefire.isBlank()) ? surefire : System.getProperty("java.class.path");
	}

	void awaitLog(String text) {
		await(this.name + " logging '" + text + "'").atMost(Duration.ofSeconds(240))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> log().contains(text) || !this.process.isAlive());
		if (!log().contains(text)) {
			throw new AssertionError(this.name + " ended without logging '" + text + "':\n" + log());
		}
	}

	void signal(String signal) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(this.process.pid())).start();
		if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
			throw new IllegalStateException("kill -" + signal + " failed");
		}
	}

	int awaitExit() throws InterruptedException {
		if (!this.process.waitFor(240, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
			throw new AssertionError(this.name + " still running:\n" + log());
		}
		return this.process.exitValue();
	}

	String log() {
		try {
			return Files.readString(this.log, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "";
		}
	}

	/** The status of each execution of the job, oldest first. */
	static List<String> statuses(Path directory) throws SQLException {
		return query(directory, "SELECT STATUS FROM BATCH_JOB_EXECUTION ORDER BY JOB_EXECUTION_ID");
	}

	/** Every item written, in the order written; duplicates included. */
	static List<String> items(Path directory) throws SQLException {
		return query(directory, "SELECT ITEM FROM OUTPUT ORDER BY ITEM");
	}

	private static List<String> query(Path directory, String sql) throws SQLException {
		return query(url(directory), sql);
	}

	/** The first column of each row the query returns. */
	static List<String> query(String url, String sql) throws SQLException {
		List<String> rows = new ArrayList<>();
		try (Connection connection = DriverManager.getConnection(url, "sa", "");
				Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery(sql)) {
			while (result.next()) {
				rows.add(result.getString(1));
			}
		}
		return rows;
	}

	/** The newest shutdown report next to the run marker, as the next start reads it. */
	static ShutdownRecord report(Path directory) {
		return ShutdownReports.newest(directory.toAbsolutePath().resolve("marker"));
	}

}
