package dev.lifecycle.autoconfigure.process;

import java.nio.file.Path;
import java.time.Duration;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.ChildJvms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stuck component in a real JVM: the stall settles it died at once, so the process
 * exits 1 soon after the liveness deadline, not 129 at the global ceiling.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class ProcessStallTests {

	@TempDir
	Path directory;

	@RegisterExtension
	final ChildJvms jvms = new ChildJvms();

	@Test
	void aStuckComponentStallsAndTheProcessExitsOneWithinDeadlinePlusPollPlusDrainDelay() throws Exception {
		ChildJvm app = this.jvms.start(ProcessTestApps.app("stall", this.directory, "--process-test.stalling=true",
				"--lifecycle.health-poll-interval=500ms", "--lifecycle.drain-delay=1s",
				"--lifecycle.global-shutdown-timeout=60s"));
		app.awaitLog("stalling: last heartbeat; stuck from now on", Duration.ofSeconds(20));
		long lastHeartbeat = System.nanoTime();

		int exitCode = app.awaitExit(Duration.ofSeconds(30));

		Duration elapsed = Duration.ofNanos(System.nanoTime() - lastHeartbeat);
		String log = app.log();
		assertThat(exitCode).as(log).isEqualTo(ExitCodes.FAILURE);
		// Deadline 2 s + one poll 0.5 s + drain delay 1 s, plus a generous margin for a
		// busy machine's JVM exit; the ceiling (60 s) is far away.
		assertThat(elapsed).isLessThan(Duration.ofSeconds(12));
		assertThat(log)
			.contains("Lifecycle: component 'stalling' stalled: no heartbeat for",
					"Lifecycle: shutdown initiated (reason=stalled, component=stalling",
					"Lifecycle: shutdown complete (clean=false, exitCode=1")
			.doesNotContain("global shutdown timeout");
	}

}
