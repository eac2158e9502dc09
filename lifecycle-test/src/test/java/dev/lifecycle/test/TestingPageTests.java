package dev.lifecycle.test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The testing page's table of test defaults is the set of defaults this module applies,
 * value for value.
 */
class TestingPageTests {

	private static final Path PAGE = Path.of("..", "docs", "testing.md");

	private static final Pattern ROW = Pattern.compile("^\\| `(lifecycle\\.[a-z.-]+)` \\| `([^`]+)` \\|.*$",
			Pattern.MULTILINE);

	@Test
	void theTableOfTestDefaultsListsExactlyTheDefaultsTestsGet() throws Exception {
		Map<String, Object> documented = new LinkedHashMap<>();
		Matcher row = ROW.matcher(Files.readString(PAGE));
		while (row.find()) {
			documented.put(row.group(1), row.group(2));
		}
		assertThat(documented).isEqualTo(LifecycleTestContextCustomizerFactory.DEFAULTS);
	}

}
