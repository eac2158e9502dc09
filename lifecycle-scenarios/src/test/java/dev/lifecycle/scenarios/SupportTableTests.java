package dev.lifecycle.scenarios;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manual's support table (docs/support.md) is the one the scenario matrix generates:
 * a stack or promise added to the suite shows in the manual, and nothing shows there that
 * the suite does not run. {@code -Dscenarios.write-support-table=true} writes the
 * generated table into the page.
 */
class SupportTableTests {

	@Test
	void theManualsSupportTableIsTheOneTheScenarioMatrixGenerates() throws IOException {
		Path page = root().resolve("docs/support.md");
		String text = Files.readString(page);
		String generated = SupportTable.markdown();
		if (Boolean.getBoolean("scenarios.write-support-table")) {
			text = SupportTable.replace(text, generated);
			Files.writeString(page, text);
		}
		assertThat(SupportTable.current(text))
			.as("docs/support.md's table differs from the scenario matrix's; regenerate it with "
					+ "mvn -pl lifecycle-scenarios test -Dtest=SupportTableTests -Dscenarios.write-support-table=true")
			.isEqualTo(generated);
	}

	private static Path root() {
		Path directory = Path.of("").toAbsolutePath();
		while (directory != null && !Files.exists(directory.resolve("docs/design.md"))) {
			directory = directory.getParent();
		}
		if (directory == null) {
			throw new IllegalStateException("no docs/design.md above " + Path.of("").toAbsolutePath());
		}
		return directory;
	}

}
