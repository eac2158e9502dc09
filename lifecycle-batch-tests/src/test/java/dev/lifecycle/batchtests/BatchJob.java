package dev.lifecycle.batchtests;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.test.ShutdownReports;
import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.JvmLaunch;

/**
 * How the batch tests launch {@link BatchTestApplication} as a {@link ChildJvm}: with the
 * test class path, against the H2 file database and the run marker of its directory,
 * which outlive it for the next run; and what a test reads once it is gone: the job
 * repository's rows, the items written, the shutdown report. A run's waits are generous
 * (240 s): a chunk's pace depends on the machine.
 */
final class BatchJob {

	private BatchJob() {
	}

	/**
	 * Launches the job with parameter {@code run=1}, so every run of a directory is the
	 * same job instance.
	 */
	static JvmLaunch run(String name, Path directory, String... arguments) {
		return run(name, directory, url(directory), directory.toAbsolutePath().resolve("marker"), arguments);
	}

	/**
	 * Launches the job with parameter {@code run=1} against the database of the URL, with
	 * the run marker given; its log goes into the directory.
	 */
	static JvmLaunch run(String name, Path directory, String url, Path marker, String... arguments) {
		return ChildJvm.java(name, directory)
			.mainClass(BatchTestApplication.class)
			.arguments("--spring.datasource.url=" + url, "--spring.datasource.username=sa",
					"--lifecycle.run-marker.path=" + marker)
			.arguments(arguments)
			.arguments("run=1")
			.awaitTimeout(Duration.ofSeconds(240));
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
