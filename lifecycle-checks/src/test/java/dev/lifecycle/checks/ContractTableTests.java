package dev.lifecycle.checks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shutdown's reasons, tiers, steps and trigger sources are each declared once, in
 * their enum: the manual's tables are the ones those declarations generate, and no other
 * page or Javadoc lists them again. {@code -Ddocs.write-contract-tables=true} writes the
 * generated tables into their page.
 */
class ContractTableTests {

	/**
	 * At least this many of one vocabulary's labels, each in backquotes, in one paragraph
	 * or table make a list of them.
	 */
	private static final int LIST = 4;

	/**
	 * Places that name the labels for another purpose, each with the words that find it:
	 * the reference page's tier property lists the values its metadata allows (it is
	 * checked against the metadata), and the metrics page says which counter series exist
	 * before any shutdown, per component (a metrics contract, not the reasons').
	 */
	private static final Map<String, List<String>> OTHER_PURPOSES = Map.of("docs/reference.md",
			List.of("| property | type | default | description |", "| `lifecycle.components.*.tier` |"),
			"docs/observability.md", List.of("| series (Prometheus) | type | labels | meaning | registered |",
					"| `lifecycle_shutdown_initiated_total` |", "| component | at idle | of which |", "| standard, "));

	@Test
	void theManualsTablesOfReasonsTiersStepsAndTriggerSourcesAreTheOnesTheirEnumsDeclare() throws IOException {
		Path page = MarkdownFiles.ROOT.resolve(ContractTables.PAGE);
		String text = Files.readString(page);
		boolean write = Boolean.getBoolean("docs.write-contract-tables");
		for (ContractTables.Table table : ContractTables.all()) {
			String generated = table.markdown().get();
			if (write) {
				text = table.part().replace(text, generated);
			}
			assertThat(table.part().current(text)).as(ContractTables.PAGE + "'s table of " + table.name()
					+ " differs from " + table.declaration().getSimpleName()
					+ "'s declaration; regenerate it with mvn -pl lifecycle-core,lifecycle-autoconfigure,lifecycle-checks "
					+ "test -Dtest=ContractTableTests -Ddocs.write-contract-tables=true "
					+ "-Dsurefire.failIfNoSpecifiedTests=false")
				.isEqualTo(generated);
		}
		if (write) {
			Files.writeString(page, text);
		}
	}

	@Test
	void noPlaceButTheGeneratedTablesListsTheReasonsTiersStepsOrTriggerSources() {
		List<String> found = new ArrayList<>();
		for (ContractTables.Table table : ContractTables.all()) {
			Set<String> declarations = Set.of(table.source(),
					"lifecycle-checks/src/test/java/dev/lifecycle/checks/ContractTableTests.java");
			for (Path file : ContractFiles.except(declarations)) {
				String name = MarkdownFiles.name(file);
				String text = MarkdownFiles.read(file);
				for (ContractTables.Table generated : ContractTables.all()) {
					text = generated.part().outside(text);
				}
				for (String place : ContractFiles.places(text, name.endsWith(".md"))) {
					Set<String> named = named(place, table.labels());
					boolean otherPurpose = OTHER_PURPOSES.getOrDefault(name, List.of())
						.stream()
						.anyMatch((words) -> place.strip().startsWith(words));
					if (named.size() >= LIST && !otherPurpose) {
						found.add(name + ": " + table.name() + " " + named + " in \""
								+ place.strip().lines().findFirst().orElse("") + "\"");
					}
				}
			}
		}
		assertThat(found)
			.as("places that list the shutdown's reasons, tiers, steps or trigger sources; link to their table in "
					+ ContractTables.PAGE + " instead")
			.isEmpty();
	}

	@Test
	void theDetectorFindsAListAndLeavesAFewNamesAlone() {
		List<String> reasons = List.of("signal", "prestop", "failure", "stalled", "died");
		assertThat(named("triggers: `signal`, `prestop`, `failure` and `stalled`", reasons)).hasSize(4);
		assertThat(named("a `signal` or the `prestop` file; a signal, a failure, a stall", reasons)).hasSize(2);
	}

	/** The labels the place names in backquotes. */
	private static Set<String> named(String place, List<String> labels) {
		Set<String> named = new HashSet<>();
		for (String label : labels) {
			if (Pattern.compile("`" + Pattern.quote(label) + "[`']").matcher(place).find()) {
				named.add(label);
			}
		}
		return named;
	}

}
