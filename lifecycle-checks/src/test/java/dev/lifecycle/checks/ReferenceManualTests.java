package dev.lifecycle.checks;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manual's property tables and the generated configuration metadata describe the same
 * properties, with the same defaults and in the same words: a property added to one and
 * not the other fails the build. The description has one source, the field's Javadoc,
 * which the IDE shows; the manual repeats it (quoted names in backticks) and may add only
 * links ("See …"). Adding a property therefore means adding one row to a table of the
 * configuration-properties page, {@code docs/reference.md}:
 * {@code | `name` | type | default | description |}.
 */
class ReferenceManualTests {

	private static final Path MANUAL = Path.of("..", "docs", "reference.md");

	private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9.*-]+)` \\|(.*)$");

	private static Map<String, Map<String, Object>> metadata;

	private static Map<String, List<String>> manual;

	@BeforeAll
	@SuppressWarnings("unchecked")
	static void load() throws Exception {
		try (InputStream json = ReferenceManualTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			Map<String, Object> document = JsonMapper.builder().build().readValue(json, Map.class);
			metadata = new LinkedHashMap<>();
			for (Map<String, Object> property : (List<Map<String, Object>>) document.get("properties")) {
				metadata.put((String) property.get("name"), property);
			}
		}
		String text = Files.readString(MANUAL);
		assertThat(text).as("the configuration-properties page %s", MANUAL).startsWith("# Configuration properties");
		manual = new LinkedHashMap<>();
		for (String line : text.split("\n")) {
			Matcher row = ROW.matcher(line);
			if (row.matches()) {
				List<String> cells = List.of(row.group(2).split("\\|"));
				assertThat(manual.put(row.group(1), cells)).as("a second row for %s", row.group(1)).isNull();
			}
		}
	}

	@Test
	void everyPropertyInTheMetadataHasARowInTheManual() {
		TreeSet<String> missing = new TreeSet<>(metadata.keySet());
		missing.removeAll(manual.keySet());
		assertThat(missing).as("properties in the configuration metadata without a row in " + "docs/reference.md")
			.isEmpty();
	}

	@Test
	void everyPropertyInTheManualIsInTheMetadata() {
		TreeSet<String> unknown = new TreeSet<>(manual.keySet());
		unknown.removeAll(metadata.keySet());
		assertThat(unknown)
			.as("rows in docs/reference.md for properties the configuration metadata does not have "
					+ "(renamed or removed?)")
			.isEmpty();
	}

	@Test
	void theManualStatesTheDefaultTheMetadataHas() {
		metadata.forEach((name, property) -> {
			Object value = property.get("defaultValue");
			List<String> cells = manual.get(name);
			if (value != null && cells != null) {
				assertThat(cells.get(1)).as("default column of %s in docs/reference.md", name)
					.contains("`" + value.toString().toLowerCase(java.util.Locale.ROOT) + "`");
			}
		});
	}

	@Test
	void theManualDescribesEachPropertyInTheWordsOfTheMetadata() {
		metadata.forEach((name, property) -> {
			List<String> cells = manual.get(name);
			String description = (String) property.get("description");
			if (cells != null && description != null) {
				String ide = plain(description);
				String text = plain(cells.get(2));
				assertThat(text).as("description of %s in docs/reference.md, which repeats its Javadoc", name)
					.startsWith(ide);
				assertThat(text.substring(ide.length()).trim())
					.as("what docs/reference.md adds to the description of %s: only links", name)
					.matches("(See .*)?");
			}
		});
	}

	/** The words of a description, without Markdown links, code marks and quotes. */
	private static String plain(String text) {
		return text.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
			.replace("`", "")
			.replace("'", "")
			.replaceAll("\\s+", " ")
			.trim();
	}

	@Test
	void everyPerComponentKeyIsInTheMetadataWithADescription() {
		assertThat(metadata).containsKeys("lifecycle.components.*.phase", "lifecycle.components.*.tier",
				"lifecycle.components.*.graceful-shutdown", "lifecycle.components.*.liveness-deadline",
				"lifecycle.components.*.stall-threshold", "lifecycle.components.*.finite");
		metadata.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().startsWith("lifecycle.components.*."))
			.forEach((entry) -> assertThat((String) entry.getValue().get("description"))
				.as("description of %s", entry.getKey())
				.contains("replace '*' with the component name"));
	}

}
