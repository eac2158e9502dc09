package dev.lifecycle.scenarios;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scenario suite: on each stack of the matrix ({@link Scenario#all()}), one real JVM
 * under load from real clients, one real SIGTERM, and every promise of the stack checked
 * from outside. The stacks run side by side.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class ScenarioSuiteTests {

	static List<Scenario> onPlatformThreads() {
		return selected(Scenario.ThreadModel.PLATFORM);
	}

	static List<Scenario> onVirtualThreads() {
		return selected(Scenario.ThreadModel.VIRTUAL);
	}

	/**
	 * The scenarios on the thread model, only those of the stacks
	 * {@code -Dscenarios.stacks=tomcat,jetty} names.
	 */
	private static List<Scenario> selected(Scenario.ThreadModel threads) {
		String stacks = System.getProperty("scenarios.stacks", "").trim().toUpperCase(java.util.Locale.ROOT);
		List<String> names = stacks.isEmpty() ? List.of() : List.of(stacks.split("\\s*,\\s*"));
		return Scenario.on(threads)
			.stream()
			.filter((scenario) -> names.isEmpty() || names.contains(scenario.stack().name()))
			.toList();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("onPlatformThreads")
	void everyPromiseOfTheStackHoldsThroughASigterm(Scenario scenario, @TempDir Path directory) throws Exception {
		check(scenario, directory);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("onVirtualThreads")
	@EnabledForJreRange(min = JRE.JAVA_21)
	@Tag("jdk25")
	void everyPromiseOfTheStackHoldsThroughASigtermOnVirtualThreads(Scenario scenario, @TempDir Path directory)
			throws Exception {
		check(scenario, directory);
	}

	private static void check(Scenario scenario, Path directory) throws Exception {
		ScenarioRun run = new ScenarioRun(scenario, directory);
		List<String> failed = new ArrayList<>();
		try {
			run.run();
			PromiseChecks checks = new PromiseChecks(run);
			StringBuilder out = new StringBuilder();
			for (Promise promise : scenario.stack().promises()) {
				List<String> problems = checks.problems(promise);
				out.append(String.format("scenario %s: %s %s%n", scenario, promise,
						problems.isEmpty() ? "held" : "FAILED: " + String.join("; ", problems)));
				if (!problems.isEmpty()) {
					failed.add(promise + ": " + String.join("\n  ", problems));
				}
			}
			out.append(String.format(
					"scenario %s: %d of %d promises held; readiness 503 at %d ms, gRPC health "
							+ "NOT_SERVING at %d ms, exit %d at %d ms after the signal%n",
					scenario, scenario.stack().promises().size() - failed.size(), scenario.stack().promises().size(),
					run.readinessDownMs, run.notServingMs, run.exitCode, run.exitMs));
			System.out.print(out);
		}
		catch (Throwable ex) {
			printLogs(run);
			throw ex;
		}
		finally {
			run.destroy();
		}
		if (!failed.isEmpty()) {
			printLogs(run);
		}
		assertThat(failed).as("the promises that did not hold on " + scenario).isEmpty();
	}

	private static void printLogs(ScenarioRun run) {
		StringBuilder logs = new StringBuilder();
		for (ChildJvm child : run.children) {
			logs.append("----- ")
				.append(run.scenario)
				.append(": ")
				.append(child.name())
				.append(" (")
				.append(child.logFile())
				.append(") -----\n")
				.append(child.log())
				.append('\n');
		}
		System.err.print(logs);
	}

}
