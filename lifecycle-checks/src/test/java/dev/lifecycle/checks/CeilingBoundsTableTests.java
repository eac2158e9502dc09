package dev.lifecycle.checks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.lifecycle.autoconfigure.process.CeilingBounds;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ceiling's bounds are declared once, in {@link CeilingBounds}: the manual's table is
 * the one that declaration generates, and no other page states their durations.
 * {@code -Ddocs.write-ceiling-bounds=true} writes the generated table into its page.
 */
class CeilingBoundsTableTests {

	private static final String PAGE = "docs/whole-application.md";

	private static final GeneratedPart PART = new GeneratedPart(PAGE,
			"<!-- ceiling bounds: generated from dev.lifecycle.autoconfigure.process.CeilingBounds "
					+ "(CeilingBoundsTableTests); do not edit -->",
			"<!-- end of the generated ceiling bounds -->");

	@Test
	void theManualsTableOfTheCeilingsBoundsIsTheOneCeilingBoundsDeclares() throws IOException {
		Path page = MarkdownFiles.ROOT.resolve(PAGE);
		String text = Files.readString(page);
		String generated = markdown();
		if (Boolean.getBoolean("docs.write-ceiling-bounds")) {
			text = PART.replace(text, generated);
			Files.writeString(page, text);
		}
		assertThat(PART.current(text))
			.as(PAGE + "'s table of the ceiling's bounds differs from CeilingBounds'; regenerate it with "
					+ "mvn -pl lifecycle-core,lifecycle-autoconfigure,lifecycle-checks test "
					+ "-Dtest=CeilingBoundsTableTests -Ddocs.write-ceiling-bounds=true "
					+ "-Dsurefire.failIfNoSpecifiedTests=false")
			.isEqualTo(generated);
	}

	@Test
	void noPageButTheGeneratedTableStatesTheBoundsDurations() {
		List<String> spellings = new ArrayList<>();
		for (CeilingBounds.Bound bound : CeilingBounds.declared()) {
			if (!bound.pastTheCeiling().isZero()) {
				spellings.addAll(spellings(bound.pastTheCeiling()));
			}
		}
		List<String> found = new ArrayList<>();
		for (Path file : ContractFiles.except(Set.of())) {
			String name = MarkdownFiles.name(file);
			if (!name.endsWith(".md") || name.startsWith("lifecycle-benchmarks/") || name.equals("BENCHMARKS.md")) {
				continue;
			}
			String text = PART.outside(MarkdownFiles.read(file));
			for (String place : ContractFiles.places(text, true)) {
				boolean aboutTheCeiling = place.contains("ceiling") || place.contains("halt");
				spellings.stream()
					.filter((spelling) -> aboutTheCeiling && place.contains(spelling))
					.forEach((spelling) -> found.add(name + ": \"" + spelling + "\" in \""
							+ place.strip().lines().findFirst().orElse("") + "\""));
			}
		}
		assertThat(found).as("pages that state the ceiling's bounds; link to the table in " + PAGE + " instead")
			.isEmpty();
	}

	/**
	 * How a page would state a bound: in milliseconds, in seconds when not whole ("1.5
	 * s"), or whole seconds "past" the ceiling; a whole "5 s" alone is too common to mean
	 * it.
	 */
	private static List<String> spellings(Duration duration) {
		long millis = duration.toMillis();
		List<String> spellings = new ArrayList<>(List.of(millis + " ms", seconds(duration) + " past"));
		if (millis % 1000 != 0) {
			spellings.add(seconds(duration));
		}
		return spellings;
	}

	private static String seconds(Duration duration) {
		long millis = duration.toMillis();
		return ((millis % 1000 == 0) ? Long.toString(millis / 1000) : Double.toString(millis / 1000.0)) + " s";
	}

	static String markdown() {
		StringBuilder table = new StringBuilder(
				"| bound | past the ceiling's deadline | what happens |\n|---|---|---|\n");
		for (CeilingBounds.Bound bound : CeilingBounds.declared()) {
			table.append("| ")
				.append(bound.name())
				.append(" | ")
				.append(bound.pastTheCeiling().isZero() ? "at it" : "+ " + seconds(bound.pastTheCeiling()))
				.append(" | ")
				.append(bound.meaning())
				.append(" |\n");
		}
		return table.toString();
	}

}
