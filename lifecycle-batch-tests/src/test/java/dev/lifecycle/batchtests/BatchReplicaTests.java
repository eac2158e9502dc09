package dev.lifecycle.batchtests;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.stream.IntStream;

import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.ChildJvms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two replicas of one batch application sharing one job repository, each with the same
 * run-marker path on a disk of its own (as two pods' {@code /tmp}): one is killed and
 * restarts, and its recovery takes only the execution its own killed process left, never
 * the other replica's running one. Here the two disks are one symbolic link, pointed at
 * the first replica's directory while it starts and at the second's after: the same path
 * string, two files.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class BatchReplicaTests {

	private static final List<String> ALL_ITEMS = IntStream.rangeClosed(1, 60).mapToObj(String::valueOf).toList();

	@TempDir
	Path directory;

	@RegisterExtension
	final ChildJvms jvms = new ChildJvms();

	@Test
	void aRestartedReplicaRecoversOnlyItsOwnExecutionAndTheOtherReplicasJobCompletesEachItemOnce() throws Exception {
		String url = BatchJob.sharedUrl(this.directory);
		// This JVM opens the database first, so it serves it to both replicas throughout.
		try (Connection served = DriverManager.getConnection(url, "sa", "")) {
			Path link = this.directory.resolve("tmp");
			Path marker = link.resolve("lifecycle-batch-test.running");
			Path hold = Files.createFile(this.directory.resolve("hold"));
			Files.createSymbolicLink(link, Files.createDirectory(this.directory.resolve("a")));
			ChildJvm a = this.jvms.launch(BatchJob.run("a", this.directory, url, marker, "--batch-test.output=OUTPUT_A",
					"--batch-test.hold-file=" + hold, "replica=a"));
			a.awaitLog("batch-test: holding at item 1");
			Files.delete(link);
			Files.createSymbolicLink(link, Files.createDirectory(this.directory.resolve("b")));

			ChildJvm b = this.jvms
				.launch(BatchJob.run("b", this.directory, url, marker, "--batch-test.output=OUTPUT_B", "replica=b"));
			b.awaitLog("batch-test: wrote items 11 to 20");
			b.sigkill();
			assertThat(b.awaitExit()).isEqualTo(128 + 9);
			ChildJvm restarted = this.jvms.launch(BatchJob.run("b-restarted", this.directory, url, marker,
					"--batch-test.output=OUTPUT_B", "replica=b"));
			assertThat(restarted.awaitExit()).as(restarted.log()).isZero();
			assertThat(restarted.log())
				.contains("Lifecycle: recovered 1 job execution(s) the previous run left running")
				.contains("job 'importJob' execution 2; a relaunch")
				.contains(
						"Lifecycle: left 1 running job execution(s) alone, not recovered: job 'importJob' execution 1;");
			assertThat(BatchJob.query(url, "SELECT ITEM FROM OUTPUT_B ORDER BY ITEM")).isEqualTo(ALL_ITEMS);

			Files.delete(hold);
			assertThat(a.awaitExit()).as(a.log()).isZero();
			assertThat(a.log()).contains("clean=true");
			assertThat(BatchJob.query(url, "SELECT STATUS FROM BATCH_JOB_EXECUTION ORDER BY JOB_EXECUTION_ID"))
				.containsExactly("COMPLETED", "FAILED", "COMPLETED");
			assertThat(BatchJob.query(url, "SELECT ITEM FROM OUTPUT_A ORDER BY ITEM")).isEqualTo(ALL_ITEMS);
		}
	}

}
