package dev.lifecycle.autoconfigure.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.ShutdownSignal;
import dev.lifecycle.testfixtures.ChildJvm;
import dev.lifecycle.testfixtures.ChildJvms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A second signal halts at once: Lifecycle's own work from the signal's handler to
 * {@code Runtime.halt} (recording the forced exit, one log line) takes less than 250 ms,
 * whatever the sequence is doing. From the signal to the process's end is printed next to
 * what a JVM that does nothing but halt in its handler takes on the same machine; the
 * JVM's own exit after the halt depends on the machine's load, so only Lifecycle's part
 * is asserted.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class ProcessForcedExitTimingTests {

	private static final long MAX_HANDLER_MS = 250;

	private static final Pattern HALTING = Pattern.compile("Lifecycle: halting with code 128, (\\d+) ms after SIGTERM");

	@TempDir
	Path directory;

	@RegisterExtension
	final ChildJvms jvms = new ChildJvms();

	@Test
	void aSecondSigtermIsRecordedAndHaltedWithin250Ms() throws Exception {
		long bare = bareHaltMillis();
		ChildJvm app = this.jvms.start(ProcessTestApps.app("forced", this.directory, "--process-test.drain=60s"));
		app.signal(ShutdownSignal.TERM);
		app.awaitLog("worker: draining", Duration.ofSeconds(30));

		long lifecycle = app.millisToEndAfterSigterm(Duration.ofSeconds(30));

		assertThat(app.awaitExit(Duration.ofSeconds(1))).isEqualTo(ExitCodes.FORCED);
		Matcher halting = HALTING.matcher(app.log());
		assertThat(halting.find()).as("the halting line").isTrue();
		long handled = Long.parseLong(halting.group(1));
		System.out.println("second SIGTERM: handler to halt " + handled + " ms; signal to exit " + lifecycle
				+ " ms; a bare Runtime.halt's signal to exit " + bare + " ms");
		assertThat(handled).isLessThan(MAX_HANDLER_MS);
		assertThat(app.log()).contains("forcing exit with code 128");
	}

	private long bareHaltMillis() throws Exception {
		ChildJvm bare = this.jvms.launch(ChildJvm.java("bare", this.directory).mainClass(BareHaltOnSigterm.class));
		bare.awaitLog("ready", Duration.ofSeconds(60));
		long millis = bare.millisToEndAfterSigterm(Duration.ofSeconds(30));
		assertThat(bare.awaitExit(Duration.ofSeconds(1))).isEqualTo(128);
		return millis;
	}

}
