package dev.lifecycle.checks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/design.md} is the list of guarantees, each linked to the test that proves
 * it: every guarantee links at least one test, and every linked test exists, as a test
 * method of that name in the linked class. The resolved contradictions stay resolved on
 * every page.
 */
class DesignGuaranteesTests {

	private static final Path DESIGN = MarkdownFiles.ROOT.resolve("docs/design.md");

	private static final Pattern TEST_LINK = Pattern.compile("\\[`(\\w+)#(\\w+)`\\]\\(([^)]+\\.java)\\)");

	@Test
	void everyGuaranteeLinksATestThatExists() {
		String text = MarkdownFiles.read(DESIGN);
		List<String> problems = new ArrayList<>();
		int links = 0;
		for (String guarantee : guarantees(text)) {
			Matcher link = TEST_LINK.matcher(guarantee);
			boolean linked = false;
			while (link.find()) {
				linked = true;
				links++;
				String problem = problem(link.group(1), link.group(2),
						DESIGN.getParent().resolve(link.group(3)).normalize());
				if (problem != null) {
					problems.add(problem);
				}
			}
			if (!linked) {
				problems.add("links no test: " + guarantee.lines().findFirst().orElse(""));
			}
		}
		assertThat(links).as("test links in docs/design.md").isGreaterThan(50);
		assertThat(problems).isEmpty();
	}

	@Test
	void noPageContradictsWhatTheCeilingBoundsOrWhenAHandleTurns() {
		List<String> found = new ArrayList<>();
		List<String> retired = List.of("steps 2–7", "steps 1–10", "to the end of the observability drain",
				"component's tier has been told to stop", "this component's tier has been told");
		for (Path file : MarkdownFiles.all()) {
			String text = MarkdownFiles.read(file).replaceAll("\\s+", " ");
			for (String phrase : retired) {
				if (text.contains(phrase)) {
					found.add(MarkdownFiles.name(file) + ": " + phrase);
				}
			}
		}
		assertThat(found).isEmpty();
	}

	/**
	 * {@code clean} and {@code failedSteps} are defined once, in docs/design.md and in
	 * the Javadoc of {@code ShutdownReport}, which carries them: the retired definitions
	 * are gone from every page and source, and the carriers point at each other.
	 */
	@Test
	void cleanAndFailedStepsAreDefinedOnlyWhereTheReportCarriesThem() {
		List<String> retired = List.of("whether everything the sequence waited for completed",
				"handlers and closing steps that threw or timed out", "when the trigger was clean, the ceiling",
				"clean only when none of these happened", "whether the shutdown was clean, once decided");
		List<String> found = new ArrayList<>();
		for (Path file : ContractFiles
			.except(Set.of("lifecycle-checks/src/test/java/dev/lifecycle/checks/DesignGuaranteesTests.java"))) {
			String text = MarkdownFiles.read(file).replaceAll("\\s*\\n\\s*(\\* )?", " ");
			for (String phrase : retired) {
				if (text.contains(phrase)) {
					found.add(MarkdownFiles.name(file) + ": " + phrase);
				}
			}
		}
		assertThat(found).as("definitions of clean or failedSteps outside docs/design.md#clean-and-failed-steps")
			.isEmpty();
		assertThat(MarkdownFiles.read(DESIGN)).contains("## Clean and failed steps", "A report is **clean** when",
				"`failedSteps` names each step");
		assertThat(MarkdownFiles
			.read(MarkdownFiles.ROOT.resolve("lifecycle-core/src/main/java/dev/lifecycle/core/ShutdownReport.java")))
			.contains("@param clean whether the shutdown was clean, defined here once",
					"docs/design.md, \"Clean and failed steps\"", "@param failedSteps each step that ended failed");
	}

	/** Each bullet of the page, with its continuation lines. */
	private static List<String> guarantees(String text) {
		List<String> bullets = new ArrayList<>();
		StringBuilder current = null;
		for (String line : text.split("\n")) {
			if (line.startsWith("- ")) {
				if (current != null) {
					bullets.add(current.toString());
				}
				current = new StringBuilder(line);
			}
			else if (current != null && line.startsWith("  ")) {
				current.append('\n').append(line);
			}
			else if (current != null) {
				bullets.add(current.toString());
				current = null;
			}
		}
		if (current != null) {
			bullets.add(current.toString());
		}
		return bullets;
	}

	private static String problem(String type, String method, Path file) {
		if (!Files.isRegularFile(file)) {
			return type + ": no file " + file;
		}
		if (!file.getFileName().toString().equals(type + ".java")) {
			return type + ": the link goes to " + file.getFileName();
		}
		// The test annotation, then only annotations (with arguments one level of
		// parentheses deep).
		Pattern test = Pattern.compile("@(Test|ParameterizedTest|RepeatedTest)\\b(\\([^()]*\\))?\\s*"
				+ "(@[\\w.]+(\\((?:[^()]|\\([^()]*\\))*\\))?\\s*)*(public\\s+)?void " + method + "\\(");
		if (!test.matcher(MarkdownFiles.read(file)).find()) {
			return type + ": no test method " + method;
		}
		return null;
	}

}
