package dev.lifecycle.checks;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownStep;
import dev.lifecycle.core.Tier;
import dev.lifecycle.core.TriggerSource;

/**
 * The manual's tables of the shutdown's vocabulary, each generated from the enum that
 * declares it: the reasons a shutdown starts for, the tiers, the steps of the sequence in
 * their order, and the trigger sources that are not a component.
 */
final class ContractTables {

	/** The page that holds the tables. */
	static final String PAGE = "docs/concepts.md";

	private ContractTables() {
	}

	/** Every table, with its markers. */
	static List<Table> all() {
		return List.of(
				new Table("reasons", ShutdownReason.class, ContractTables::reasons,
						ContractTables.<ShutdownReason>labels(ShutdownReason::label, ShutdownReason.values())),
				new Table("tiers", Tier.class, ContractTables::tiers,
						ContractTables.<Tier>labels((tier) -> tier.name().toLowerCase(Locale.ROOT), Tier.values())),
				new Table("steps", ShutdownStep.class, ContractTables::steps,
						ContractTables.<ShutdownStep>labels(ShutdownStep::label, ShutdownStep.values())),
				new Table("trigger sources", TriggerSource.class, ContractTables::sources,
						ContractTables.<TriggerSource>labels(TriggerSource::label, TriggerSource.values())));
	}

	private static String reasons() {
		StringBuilder table = new StringBuilder("| reason | clean on its own | what starts it |\n|---|---|---|\n");
		for (ShutdownReason reason : declared(ShutdownReason.values())) {
			row(table, "`" + reason.label() + "`", reason.isClean() ? "yes" : "no (exit 1)", reason.meaning());
		}
		return table.toString();
	}

	private static String tiers() {
		StringBuilder table = new StringBuilder(
				"| tier | its failure, death or stall | the shutdown waits for it | told to stop | rules |\n"
						+ "|---|---|---|---|---|\n");
		for (Tier tier : declared(Tier.values())) {
			Tier.Rules rules = tier.rules();
			String name = "`" + tier.name().toLowerCase(Locale.ROOT) + "`"
					+ ((tier == Tier.STANDARD) ? " (default)" : "");
			row(table, name, rules.failure(), rules.waitedFor(), rules.toldToStop(), rules.options());
		}
		return table.toString();
	}

	private static String steps() {
		StringBuilder table = new StringBuilder("| step | what it does |\n|---|---|\n");
		for (ShutdownStep step : declared(ShutdownStep.values())) {
			row(table, "**" + step.label() + "**", step.meaning());
		}
		return table.toString();
	}

	private static String sources() {
		StringBuilder table = new StringBuilder("| component | the shutdown began because |\n|---|---|\n");
		for (TriggerSource source : declared(TriggerSource.values())) {
			row(table, "`" + source.label() + "`", source.meaning());
		}
		return table.toString();
	}

	/**
	 * The constants a release declares: a constant that only names what a report read
	 * back did not know is not part of the contract.
	 */
	private static <E extends Enum<E>> List<E> declared(E[] values) {
		return Arrays.stream(values).filter((value) -> !value.name().equals("UNKNOWN")).toList();
	}

	private static <E extends Enum<E>> List<String> labels(Function<E, String> label, E[] values) {
		return declared(values).stream().map(label).toList();
	}

	private static void row(StringBuilder table, String... cells) {
		table.append(Stream.of(cells).reduce("|", (line, cell) -> line + " " + cell + " |")).append('\n');
	}

	/**
	 * One generated table.
	 *
	 * @param name what it lists, as its markers name it
	 * @param declaration the enum that declares it
	 * @param markdown the table, generated
	 * @param labels the labels of what it lists, as pages spell them
	 */
	record Table(String name, Class<?> declaration, java.util.function.Supplier<String> markdown, List<String> labels) {

		GeneratedPart part() {
			return new GeneratedPart(PAGE,
					"<!-- " + this.name + ": generated from " + this.declaration.getName()
							+ " (ContractTableTests); do not edit -->",
					"<!-- end of the generated " + this.name + " -->");
		}

		/** The declaration's source file, relative to the repository's root. */
		String source() {
			return "lifecycle-core/src/main/java/" + this.declaration.getName().replace('.', '/') + ".java";
		}

	}

}
