package dev.lifecycle.autoconfigure;

import java.util.stream.Stream;

import dev.lifecycle.autoconfigure.component.LifecycleComponentAutoConfiguration;
import dev.lifecycle.autoconfigure.process.LifecycleProcessAutoConfiguration;
import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.spring.ManagedComponent;
import dev.lifecycle.spring.ShutdownHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Every invalid configuration fails the start, and the failure analysis names the setting
 * and says how to fix it.
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidConfigurationTests {

	private final ApplicationContextRunner runner = TestRunners.lifecycle()
		.withUserConfiguration(SinkConfiguration.class);

	static Stream<Arguments> invalidConfigurations() {
		return Stream.of(
				Arguments.of("advisory without liveness deadline",
						new String[] { "lifecycle.components.sink.tier=advisory" },
						"lifecycle.components.sink.liveness-deadline", "is required for an ADVISORY component",
						"Set 'lifecycle.components.sink.liveness-deadline'"),
				Arguments.of("advisory with graceful budget",
						new String[] { "lifecycle.components.sink.tier=advisory",
								"lifecycle.components.sink.liveness-deadline=10s",
								"lifecycle.components.sink.graceful-shutdown=5s" },
						"lifecycle.components.sink.graceful-shutdown", "is not allowed on an ADVISORY component",
						"Remove the graceful shutdown budget"),
				Arguments.of("observability with liveness deadline",
						new String[] { "lifecycle.components.sink.tier=observability",
								"lifecycle.components.sink.liveness-deadline=10s" },
						"lifecycle.components.sink.liveness-deadline", "is not allowed on an OBSERVABILITY component",
						"Remove the liveness deadline"),
				Arguments.of("zero global timeout", new String[] { "lifecycle.global-shutdown-timeout=0s" },
						"lifecycle.global-shutdown-timeout", "must be positive", "to at least 1ms, such as 60s"),
				Arguments.of("negative health poll interval", new String[] { "lifecycle.health-poll-interval=-1s" },
						"lifecycle.health-poll-interval", "must be positive", "to at least 10ms, such as 5s"),
				Arguments.of("health poll interval that would busy-loop",
						new String[] { "lifecycle.health-poll-interval=1ns" }, "lifecycle.health-poll-interval",
						"must be at least 10ms but was PT0.000000001S",
						"Set 'lifecycle.health-poll-interval' to at least 10ms"),
				Arguments.of("global timeout below the engine's resolution",
						new String[] { "lifecycle.global-shutdown-timeout=100us" }, "lifecycle.global-shutdown-timeout",
						"must be at least 1ms but was PT0.0001S",
						"Set 'lifecycle.global-shutdown-timeout' to at least 1ms"),
				Arguments.of("graceful budget below the engine's resolution",
						new String[] { "lifecycle.components.sink.graceful-shutdown=1ns" },
						"lifecycle.components.sink.graceful-shutdown", "must be at least 1ms", "to at least 1ms"),
				Arguments.of("drain quiet period below the engine's resolution",
						new String[] { "lifecycle.drain-delay=5s", "lifecycle.drain-quiet-period=1ns" },
						"lifecycle.drain-quiet-period", "must be at least 1ms", "to at least 1ms"),
				Arguments.of("misspelt global shutdown timeout",
						new String[] { "lifecycle.global-shutdown-timout=10s" }, "lifecycle.global-shutdown-timout",
						"is not a Lifecycle property, so it would be ignored; the closest one is "
								+ "'lifecycle.global-shutdown-timeout'",
						"Correct the key to 'lifecycle.global-shutdown-timeout', or remove it"),
				Arguments.of("misspelt drain delay", new String[] { "lifecycle.drain-dealy=5s" },
						"lifecycle.drain-dealy", "is not a Lifecycle property",
						"Correct the key to 'lifecycle.drain-delay', or remove it"),
				Arguments.of("misspelt pre-stop path", new String[] { "lifecycle.pre-stop.pth=/tmp/shutdown" },
						"lifecycle.pre-stop.pth", "is not a Lifecycle property",
						"Correct the key to 'lifecycle.pre-stop.path', or remove it"),
				Arguments.of("misspelt group", new String[] { "lifecycle.run-markr.enabled=false" },
						"lifecycle.run-markr.enabled", "is not a Lifecycle property",
						"Correct the key to 'lifecycle.run-marker.enabled', or remove it"),
				Arguments.of("negative drain delay", new String[] { "lifecycle.drain-delay=-1s" },
						"lifecycle.drain-delay", "must not be negative", "Set 'lifecycle.drain-delay' to at least 0s"),
				Arguments.of("drain delay beyond the ceiling",
						new String[] { "lifecycle.drain-delay=10s", "lifecycle.global-shutdown-timeout=10s" },
						"lifecycle.drain-delay", "must be shorter than 'lifecycle.global-shutdown-timeout'",
						"Lower 'lifecycle.drain-delay'"),
				Arguments.of("zero graceful budget", new String[] { "lifecycle.components.sink.graceful-shutdown=0s" },
						"lifecycle.components.sink.graceful-shutdown", "must be positive", "to at least 1ms"),
				Arguments.of("negative liveness deadline",
						new String[] { "lifecycle.components.sink.liveness-deadline=-5s" },
						"lifecycle.components.sink.liveness-deadline", "must be positive", "to at least 1ms"),
				Arguments.of("stall threshold below one",
						new String[] { "lifecycle.components.sink.stall-threshold=0" },
						"lifecycle.components.sink.stall-threshold", "must be at least 1", "to at least 1"),
				Arguments.of("advisory and finite by property",
						new String[] { "lifecycle.components.sink.tier=advisory",
								"lifecycle.components.sink.liveness-deadline=10s",
								"lifecycle.components.sink.finite=true" },
						"lifecycle.components.sink.finite", "is not allowed on an ADVISORY component",
						"or set 'lifecycle.components.sink.tier=standard'"),
				Arguments.of("unknown component name", new String[] { "lifecycle.components.snik.phase=3" },
						"lifecycle.components.snik", "does not name a registered component",
						"Correct the name under 'lifecycle.components' to one of [sink]"),
				Arguments.of("misspelt component option",
						new String[] { "lifecycle.components.sink.gracefull-shutdown=5s" },
						"lifecycle.components.sink.gracefull-shutdown", "is not a component option",
						"Correct the key to 'lifecycle.components.sink.graceful-shutdown', the closest option"),
				Arguments.of("opt-out of a bean that is no Lifecycle bean",
						new String[] { "lifecycle.components.nothing.adopt=false" }, "lifecycle.components.nothing",
						"does not name a registered component", "Correct the name under 'lifecycle.components'"),
				Arguments.of("relative pre-stop path",
						new String[] { "lifecycle.pre-stop.enabled=true", "lifecycle.pre-stop.path=tmp/shutdown" },
						"lifecycle.pre-stop.path", "must be an absolute path", "to an absolute path"),
				Arguments.of("global timeout beyond a day",
						new String[] { "lifecycle.global-shutdown-timeout=1000000d" },
						"lifecycle.global-shutdown-timeout", "must be at most PT24H (1 day)",
						"Set 'lifecycle.global-shutdown-timeout' to at most 24h"),
				Arguments.of("health poll interval beyond a day",
						new String[] { "lifecycle.health-poll-interval=1000000d" }, "lifecycle.health-poll-interval",
						"must be at most PT24H (1 day)", "Set 'lifecycle.health-poll-interval' to at most 24h"),
				Arguments.of("drain delay beyond a day", new String[] { "lifecycle.drain-delay=1000000d" },
						"lifecycle.drain-delay", "must be at most PT24H (1 day)",
						"Set 'lifecycle.drain-delay' to at most 24h"),
				Arguments.of("graceful budget beyond a day",
						new String[] { "lifecycle.components.sink.graceful-shutdown=1000000d" },
						"lifecycle.components.sink.graceful-shutdown", "must be at most PT24H (1 day)",
						"Set 'lifecycle.components.sink.graceful-shutdown' to at most 24h"),
				Arguments.of("liveness deadline beyond a day",
						new String[] { "lifecycle.components.sink.liveness-deadline=1000000d" },
						"lifecycle.components.sink.liveness-deadline", "must be at most PT24H (1 day)",
						"to at most 24h"),
				Arguments.of("stall threshold beyond the maximum",
						new String[] { "lifecycle.components.sink.liveness-deadline=5s",
								"lifecycle.components.sink.stall-threshold=2147483647" },
						"lifecycle.components.sink.stall-threshold", "must be at most 10000", "to at most 10000"),
				Arguments.of("too many reports", new String[] { "lifecycle.run-marker.reports=1000000" },
						"lifecycle.run-marker.reports", "must be at most 10000", "to at most 10000"),
				Arguments.of("an exit code beyond a process status",
						new String[] { "lifecycle.exit-code.incomplete=256" }, "lifecycle.exit-code.incomplete",
						"must be at most 255",
						"Set 'lifecycle.exit-code.incomplete' to at most 255, such as 75 (the default) or 0"),
				Arguments.of("an exit code that means something else",
						new String[] { "lifecycle.exit-code.incomplete=3" }, "lifecycle.exit-code.incomplete",
						"must not be 3, which already means 'out of memory (the JVM's)'",
						"Set 'lifecycle.exit-code.incomplete' to a code of its own, such as 75 (the default) or 0"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("invalidConfigurations")
	void invalidConfigurationFailsTheStartWithAnAnalysisNamingThePropertyAndTheFix(String description,
			String[] properties, String setting, String problem, String fix) {
		this.runner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("'" + setting + "'").contains(problem);
			assertThat(analysis.getAction()).contains(fix);
		});
	}

	@Test
	void environmentVariableStyleOverrideKeysMatchTheirComponent() {
		this.runner.withPropertyValues("lifecycle.components.SINK.phase=7")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void everyKeyThatSomethingBindsUnderLifecycleIsAccepted() {
		this.runner
			.withPropertyValues("lifecycle.grpc.enabled=false", "lifecycle.grpc.end-streams=false",
					"lifecycle.grpc.health=false", "lifecycle.streams.end-at=shutdown",
					"lifecycle.pre-stop.enabled=false", "lifecycle.run-marker.reports=3",
					"lifecycle.metrics.push-on-shutdown=false", "lifecycle.exit-code.incomplete=0",
					"lifecycle.adoption.enabled=true", "lifecycle.components.sink.graceful-shutdown=5s",
					"lifecycle.components.sink.stallThreshold=2", "lifecycle.drainDelay=0s")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aMisspeltKeyFailsTheStartNamingWhereItWasSetAndTheClosestKey(CapturedOutput output) {
		SpringApplication application = new SpringApplication(MinimalApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException()
			.isThrownBy(() -> application.run("--spring.application.name=orders", "--lifecycle.signals.trap=false",
					"--lifecycle.run-marker.enabled=false", "--lifecycle.drain-dealy=5s"));
		assertThat(output)
			.contains("Lifecycle cannot start: 'lifecycle.drain-dealy' is not a Lifecycle property, so "
					+ "it would be ignored; the closest one is 'lifecycle.drain-delay' (set in ")
			.contains("from property source \"commandLineArgs\")")
			.contains("Correct the key to 'lifecycle.drain-delay', or remove it");
	}

	@Test
	void anInvalidSpringPhaseTimeoutFailsTheStartNamingThatPropertyAndWhereItWasSet(CapturedOutput output) {
		for (String timeout : new String[] { "0s", "-1s", "400d" }) {
			SpringApplication application = new SpringApplication(MinimalApplication.class,
					LifecycleBeanConfiguration.class);
			application.setWebApplicationType(WebApplicationType.NONE);
			assertThatException().isThrownBy(() -> application.run("--spring.application.name=orders",
					"--lifecycle.signals.trap=false", "--lifecycle.run-marker.enabled=false",
					"--spring.lifecycle.timeout-per-shutdown-phase=" + timeout));
		}
		assertThat(output)
			.contains("Lifecycle cannot start: 'spring.lifecycle.timeout-per-shutdown-phase' must be positive but was "
					+ "PT0S (set in ")
			.contains("'spring.lifecycle.timeout-per-shutdown-phase' must be positive but was PT-1S")
			.contains("'spring.lifecycle.timeout-per-shutdown-phase' must be at most PT24H (1 day)")
			.contains("Set 'spring.lifecycle.timeout-per-shutdown-phase' to at least 1ms")
			.doesNotContain("closing step");
	}

	@Test
	void duplicateComponentNamesFailTheStart() {
		TestRunners.lifecycle().withUserConfiguration(DuplicateConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("'@ManagedComponent(\"twin\")'")
				.contains("bean 'first'")
				.contains("bean 'second'")
				.contains("component names must be unique");
			assertThat(analysis.getAction()).contains("Give each component its own name");
		});
	}

	@Test
	void unparseableAnnotationDurationFailsTheStart() {
		TestRunners.lifecycle().withUserConfiguration(BadDurationConfiguration.class).run((context) -> {
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("@ManagedComponent(gracefulShutdown)")
				.contains("is not a duration: 'soon'");
		});
	}

	@Test
	void shutdownHandlerWithParametersFailsTheStart() {
		TestRunners.lifecycle().withUserConfiguration(BadHandlerConfiguration.class).run((context) -> {
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("@ShutdownHandler on")
				.contains("must annotate a method without parameters");
		});
	}

	@Test
	void analyzerIsRegisteredAndReportsWhereThePropertyWasSet(CapturedOutput output) {
		SpringApplication application = new SpringApplication(MinimalApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException()
			.isThrownBy(() -> application.run("--spring.application.name=orders", "--lifecycle.signals.trap=false",
					"--lifecycle.run-marker.enabled=false", "--lifecycle.pre-stop.path=relative/shutdown"));
		assertThat(output).contains("Lifecycle cannot start: 'lifecycle.pre-stop.path' must be an absolute path")
			.contains("commandLineArgs")
			.contains("Set 'lifecycle.pre-stop.path' to an absolute path");
	}

	@Test
	void aRunMarkerPathHoldingAnotherFileFailsTheStartNamingThePropertyAndPathAndLeavesTheFile(
			@org.junit.jupiter.api.io.TempDir java.nio.file.Path directory, CapturedOutput output) throws Exception {
		java.nio.file.Path secret = java.nio.file.Files.writeString(directory.resolve("secret.txt"), "token=hunter2\n");
		SpringApplication application = new SpringApplication(MinimalApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--spring.application.name=orders",
				"--lifecycle.signals.trap=false", "--lifecycle.run-marker.path=" + secret));
		assertThat(output)
			.contains("Lifecycle cannot start: 'lifecycle.run-marker.path' (" + secret
					+ ") holds a file that is not a Lifecycle run marker")
			.contains("Point 'lifecycle.run-marker.path' at a file of its own")
			.doesNotContain("hunter2");
		assertThat(secret).hasContent("token=hunter2\n");
	}

	@Test
	void aPreStopPathHoldingDataFailsTheStartNamingThePropertyAndLeavesTheData(
			@org.junit.jupiter.api.io.TempDir java.nio.file.Path directory) throws Exception {
		java.nio.file.Path database = java.nio.file.Files.write(directory.resolve("events.db"), new byte[8192]);
		this.runner.withPropertyValues("lifecycle.pre-stop.enabled=true", "lifecycle.pre-stop.path=" + database)
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription())
					.contains("'lifecycle.pre-stop.path' (" + database + ") holds a file with content (8192 bytes)");
				assertThat(analysis.getAction()).contains("creates empty (touch /tmp/shutdown)");
			});
		assertThat(database).hasSize(8192);
	}

	@Test
	void analyzerIsListedInSpringFactories() {
		assertThat(SpringFactoriesLoader.loadFactoryNames(FailureAnalyzer.class, getClass().getClassLoader())).contains(
				InvalidLifecycleConfigurationFailureAnalyzer.class.getName(),
				InvalidOptionFailureAnalyzer.class.getName());
	}

	private static FailureAnalysis analyze(Throwable failure) {
		FailureAnalysis analysis = new InvalidLifecycleConfigurationFailureAnalyzer(new StandardEnvironment())
			.analyze(failure);
		assertThat(analysis).as("analysis of %s", failure).isNotNull();
		return analysis;
	}

	@ManagedComponent
	static class Sink {

	}

	@Configuration(proxyBeanMethods = false)
	static class SinkConfiguration {

		@Bean
		Sink sink() {
			return new Sink();
		}

	}

	@ManagedComponent("twin")
	static class Twin implements ActiveComponent {

		@Override
		public void run(ComponentHandle handle) throws Exception {
			handle.awaitShutdown();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DuplicateConfiguration {

		@Bean
		Twin first() {
			return new Twin();
		}

		@Bean
		Twin second() {
			return new Twin();
		}

	}

	@ManagedComponent(gracefulShutdown = "soon")
	static class BadDuration {

	}

	@Configuration(proxyBeanMethods = false)
	static class BadDurationConfiguration {

		@Bean
		BadDuration badDuration() {
			return new BadDuration();
		}

	}

	static class BadHandler {

		@ShutdownHandler
		void checkpoint(String where) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadHandlerConfiguration {

		@Bean
		BadHandler badHandler() {
			return new BadHandler();
		}

	}

	/**
	 * A Spring Lifecycle bean: adopted, it gets Spring's per-phase timeout as its budget.
	 */
	static class Poller implements SmartLifecycle {

		private volatile boolean running;

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LifecycleBeanConfiguration {

		@Bean
		Poller poller() {
			return new Poller();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ LifecycleManagerAutoConfiguration.class, LifecycleProcessAutoConfiguration.class,
			LifecycleComponentAutoConfiguration.class })
	static class MinimalApplication {

	}

}
