package dev.lifecycle.checks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import dev.lifecycle.core.ExitCodes;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exit codes are declared once, in {@link ExitCodes}: the manual's table is the one
 * that declaration generates, and no other page, Javadoc, property description, script or
 * manifest lists them. {@code -Ddocs.write-exit-codes=true} writes the generated table
 * into its page.
 */
class ExitCodeTableTests {

	/** The declaration itself, and this test's own examples. */
	private static final Set<String> DECLARATIONS = Set.of(
			"lifecycle-core/src/main/java/dev/lifecycle/core/ExitCodes.java",
			"lifecycle-checks/src/test/java/dev/lifecycle/checks/ExitCodeTableTests.java");

	@Test
	void theManualsTableOfExitCodesIsTheOneExitCodesDeclares() throws IOException {
		Path page = MarkdownFiles.ROOT.resolve(ExitCodeTable.PAGE);
		String text = Files.readString(page);
		String generated = ExitCodeTable.markdown();
		if (Boolean.getBoolean("docs.write-exit-codes")) {
			text = ExitCodeTable.replace(text, generated);
			Files.writeString(page, text);
		}
		assertThat(ExitCodeTable.current(text))
			.as(ExitCodeTable.PAGE + "'s table of exit codes differs from ExitCodes'; regenerate it with "
					+ "mvn -pl lifecycle-core,lifecycle-autoconfigure,lifecycle-checks test -Dtest=ExitCodeTableTests "
					+ "-Ddocs.write-exit-codes=true -Dsurefire.failIfNoSpecifiedTests=false")
			.isEqualTo(generated);
	}

	@Test
	void noPlaceButTheGeneratedTableListsTheExitCodes() {
		List<String> found = new ArrayList<>();
		for (Path file : ContractFiles.except(DECLARATIONS)) {
			String name = MarkdownFiles.name(file);
			// A podFailurePolicy's operands use the codes; they do not describe them.
			String text = ExitCodeTable.outside(MarkdownFiles.read(file)).replaceAll("(?m)^\\s*values: \\[.*$", "");
			for (String place : ContractFiles.places(text, name.endsWith(".md"))) {
				Set<String> codes = codes(place);
				if (listsExitCodes(place, codes)) {
					found.add(name + ": " + codes + " in \"" + place.strip().lines().findFirst().orElse("") + "\"");
				}
			}
		}
		assertThat(found)
			.as("places that list exit codes; link to the table in " + ExitCodeTable.PAGE + "#exit-codes instead")
			.isEmpty();
	}

	@Test
	void theDetectorFindsAListAndLeavesASingleCodeAlone() {
		assertThat(listsExitCodes("exits 0 clean, 1 failure, 128 forced, 129 ceiling", codes("0 1 128 129"))).isTrue();
		assertThat(listsExitCodes("exit codes: stopped (75), forced (128), ceiling (129)", codes("75 128 129")))
			.isTrue();
		assertThat(listsExitCodes("the exit code is 129 after 1 s and 0 ms", codes("129 1 0"))).isFalse();
		String table = "| code | the job |\n|---|---|\n| 0 | done |\n| 75 | stopped |\n| 128 | forced |";
		assertThat(listsExitCodes(table, codes(table))).isTrue();
	}

	/**
	 * A list names at least three codes, two of them beyond 0 and 1 (which count and
	 * durations use too), where it speaks of an exit; or it is a table whose rows begin
	 * with such codes.
	 */
	private static boolean listsExitCodes(String place, Set<String> codes) {
		if (place.startsWith("|")) {
			Set<String> rowCodes = codes(place.lines()
				.map((row) -> row.replaceFirst("^\\|\\s*(\\d+)\\s*\\|.*$", "$1"))
				.filter((cell) -> cell.matches("\\d+"))
				.reduce("", (all, cell) -> all + " " + cell));
			if (place.contains("\n")) {
				// A whole table: its rows are read one by one too.
				return enough(rowCodes);
			}
		}
		if (!place.toLowerCase().contains("exit")) {
			return false;
		}
		return enough(codes);
	}

	private static boolean enough(Set<String> codes) {
		long distinctive = codes.stream().filter((code) -> !code.equals("0") && !code.equals("1")).count();
		return codes.size() >= 3 && distinctive >= 2;
	}

	/** Lifecycle's own codes that the text names as numbers. */
	private static Set<String> codes(String place) {
		Set<String> codes = new TreeSet<>();
		for (int code : ExitCodes.declared()
			.stream()
			.filter(ExitCodes.Code::lifecycles)
			.map(ExitCodes.Code::code)
			.toList()) {
			if (Pattern.compile("(?<![\\w.\\-/:=])" + code + "(?![\\w.%\\-/:])").matcher(place).find()) {
				codes.add(Integer.toString(code));
			}
		}
		return codes;
	}

}
