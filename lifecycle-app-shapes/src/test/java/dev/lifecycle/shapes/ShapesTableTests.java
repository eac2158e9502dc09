package dev.lifecycle.shapes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manual's table of proven application shapes (docs/support.md) is the one the shapes
 * module generates: a shape added to the application shows in the manual, and nothing
 * shows there that the tests do not run. {@code -Dshapes.write-table=true} writes it.
 */
class ShapesTableTests {

	@Test
	void theManualsShapesTableIsTheOneTheShapesModuleGenerates() throws IOException {
		Path page = root().resolve("docs/support.md");
		String text = Files.readString(page);
		String generated = ShapesTable.markdown();
		if (Boolean.getBoolean("shapes.write-table")) {
			text = ShapesTable.replace(text, generated);
			Files.writeString(page, text);
		}
		assertThat(ShapesTable.current(text))
			.as("docs/support.md's shapes table differs from the shapes module's; regenerate it with "
					+ "mvn -pl lifecycle-app-shapes test -Dtest=ShapesTableTests -Dshapes.write-table=true")
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
