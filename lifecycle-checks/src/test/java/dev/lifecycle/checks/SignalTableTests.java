package dev.lifecycle.checks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.lifecycle.core.ShutdownSignal;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The signals Lifecycle traps are declared once, in {@link ShutdownSignal}: the manual's
 * table of signals is the one that declaration generates, and no other page, Javadoc,
 * property description, script or manifest lists them. {@code -Ddocs.write-signals=true}
 * writes the generated table into its page.
 */
class SignalTableTests {

	/** The declaration itself, and this test's own examples. */
	private static final Set<String> DECLARATIONS = Set.of(
			"lifecycle-core/src/main/java/dev/lifecycle/core/ShutdownSignal.java",
			"lifecycle-checks/src/test/java/dev/lifecycle/checks/SignalTableTests.java");

	/**
	 * A signal's name, with its prefix or without (as {@code kill -s} and scripts write
	 * it).
	 */
	private static final String SIGNAL = "`?\\b(?:SIG)?(?:HUP|INT|QUIT|KILL|TERM|USR1|USR2|ALRM|STOP|CONT)\\b`?";

	/** Two or more names in a row: a list. */
	private static final Pattern LIST = Pattern
		.compile(SIGNAL + "(?:(?:\\s*(?:,|/)\\s*|\\s+(?:or|and|,)\\s+|,\\s+(?:or|and)\\s+| )" + SIGNAL + ")+");

	@Test
	void theManualsTableOfSignalsIsTheOneShutdownSignalDeclares() throws IOException {
		Path page = MarkdownFiles.ROOT.resolve(SignalTable.PAGE);
		String text = Files.readString(page);
		String generated = SignalTable.markdown();
		if (Boolean.getBoolean("docs.write-signals")) {
			text = SignalTable.PART.replace(text, generated);
			Files.writeString(page, text);
		}
		assertThat(SignalTable.PART.current(text))
			.as(SignalTable.PAGE + "'s table of signals differs from ShutdownSignal's; regenerate it with "
					+ "mvn -pl lifecycle-core,lifecycle-autoconfigure,lifecycle-checks test -Dtest=SignalTableTests "
					+ "-Ddocs.write-signals=true -Dsurefire.failIfNoSpecifiedTests=false")
			.isEqualTo(generated);
	}

	@Test
	void noPlaceButTheGeneratedTableListsTheSignals() {
		List<String> found = new ArrayList<>();
		for (Path file : ContractFiles.except(DECLARATIONS)) {
			String name = MarkdownFiles.name(file);
			String text = SignalTable.PART.outside(MarkdownFiles.read(file));
			for (String place : ContractFiles.places(text, name.endsWith(".md"))) {
				Set<String> signals = listed(place);
				if (!signals.isEmpty()) {
					found.add(name + ": " + signals + " in \"" + place.strip().lines().findFirst().orElse("") + "\"");
				}
			}
		}
		assertThat(found)
			.as("places that list the signals Lifecycle traps; link to the table in " + SignalTable.PAGE
					+ "#signals instead")
			.isEmpty();
	}

	@Test
	void theDetectorFindsAListAndLeavesASingleSignalAndWhatIsSentAlone() {
		assertThat(listed("on SIGTERM, SIGINT or SIGHUP it drains")).containsExactly("HUP", "INT", "TERM");
		assertThat(listed("Whether Lifecycle handles SIGTERM/SIGINT")).containsExactly("INT", "TERM");
		assertThat(listed("SIGTERM and SIGINT")).containsExactly("INT", "TERM");
		assertThat(listed("env --default-signal=HUP,INT,TERM")).containsExactly("HUP", "INT", "TERM");
		assertThat(listed("stop it with `kill <pid>` (SIGTERM) or Ctrl-C")).isEmpty();
		assertThat(listed("`nohup` does so for SIGHUP, a script's `trap '' TERM` for SIGTERM")).isEmpty();
		// What a test sends, SIGKILL among it: not what Lifecycle traps.
		assertThat(listed("SIGTERM/SIGKILL/SIGHUP cycles")).isEmpty();
		assertThat(listed("TORTURE_SIGNALS=\"TERM KILL HUP\"")).isEmpty();
	}

	/**
	 * The trapped signals a place lists: two or more of them in one list, a list that
	 * names no signal Lifecycle cannot trap (one with SIGKILL says what is sent, not what
	 * is handled).
	 */
	private static Set<String> listed(String place) {
		Set<String> handled = Arrays.stream(ShutdownSignal.values())
			.map(ShutdownSignal::name)
			.collect(Collectors.toSet());
		Set<String> listed = new TreeSet<>();
		Matcher list = LIST.matcher(place);
		while (list.find()) {
			Set<String> names = new TreeSet<>();
			Matcher signal = Pattern.compile(SIGNAL).matcher(list.group());
			while (signal.find()) {
				names.add(signal.group().replace("`", "").replaceFirst("^SIG", ""));
			}
			if (names.contains("KILL")) {
				continue;
			}
			names.retainAll(handled);
			if (names.size() >= 2) {
				listed.addAll(names);
			}
		}
		return listed;
	}

}
