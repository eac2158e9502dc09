package dev.lifecycle.sample.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@code scripts/torture.sh} from the build, only when asked (it takes 10–25 s per
 * cycle): {@code mvn -B verify -pl sample-app -Dsample.torture.cycles=5}.
 */
@EnabledIfSystemProperty(named = "sample.torture.cycles", matches = "\\d+")
class TortureScriptIT {

	@Test
	@Timeout(value = 60, unit = TimeUnit.MINUTES)
	void tortureScriptLosesNothing(@TempDir Path work) throws IOException, InterruptedException {
		int cycles = Integer.parseInt(System.getProperty("sample.torture.cycles"));
		Path script = Path.of(System.getProperty("sample.scripts", "scripts"), "torture.sh");
		Path output = work.resolve("torture.out");
		ProcessBuilder builder = new ProcessBuilder("bash", script.toString(), Integer.toString(cycles))
			.redirectErrorStream(true)
			.redirectOutput(output.toFile());
		builder.environment().put("SAMPLE_JAR", System.getProperty("sample.jar", "target/sample-app.jar"));
		builder.environment().put("TMPDIR", work.toString());
		int exit = builder.start().waitFor();
		List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
		lines.forEach(System.out::println);
		assertThat(lines).last().isEqualTo(cycles + " passed, 0 failed");
		assertThat(exit).isZero();
	}

}
