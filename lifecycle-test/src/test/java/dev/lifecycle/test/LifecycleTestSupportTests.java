package dev.lifecycle.test;

import java.time.Duration;

import dev.lifecycle.autoconfigure.process.ShutdownExit;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * What a test gets from lifecycle-test on its classpath: safe defaults that beat the
 * application's own configuration but not the test's, and a deterministic shutdown with
 * its report.
 */
class LifecycleTestSupportTests {

	@Nested
	@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
			properties = "spring.application.name=support-test")
	@DirtiesContext
	class Defaults {

		@Autowired
		ApplicationContext context;

		@Autowired
		Environment environment;

		@Test
		void testsGetSafeDefaults() {
			assertThat(this.environment.getProperty("lifecycle.signals.trap")).isEqualTo("false");
			assertThat(this.environment.getProperty("lifecycle.close-context")).isEqualTo("false");
			assertThat(this.environment.getProperty("lifecycle.pre-stop.enabled")).isEqualTo("false");
			assertThat(this.environment.getProperty("lifecycle.run-marker.enabled")).isEqualTo("false");
			assertThat(this.environment.getProperty("lifecycle.drain-delay")).isEqualTo("0s");
			assertThat(this.context.getBean(ShutdownExit.class).listensToSignals()).isFalse();
		}

		@Test
		void triggeredShutdownRunsTheSequenceAndReportsWithoutSignals() {
			LifecycleTestSupport lifecycle = LifecycleTestSupport.of(this.context);
			assertThatIllegalStateException().isThrownBy(() -> lifecycle.awaitReport(Duration.ofMillis(10)))
				.withMessageContaining("no shutdown was triggered");
			assertThat(lifecycle.triggerShutdown()).isTrue();
			assertThat(lifecycle.triggerShutdown()).isFalse();
			ShutdownReport report = lifecycle.awaitReport(Duration.ofSeconds(10));
			assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.SIGNAL);
			assertThat(report.trigger().component()).isEqualTo("test");
			assertThat(report.exitCode()).isZero();
		}

	}

	@Nested
	@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
			properties = { "spring.application.name=support-test", "lifecycle.close-context=true" })
	class TestPropertiesWin {

		@Autowired
		Environment environment;

		@Test
		void aTestsOwnPropertyWinsOverTheDefaults() {
			assertThat(this.environment.getProperty("lifecycle.close-context")).isEqualTo("true");
		}

	}

	@Nested
	@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
			properties = { "spring.application.name=support-test", "spring.config.name=production-like" })
	@DirtiesContext
	class ProductionConfiguration {

		@Autowired
		ApplicationContext context;

		@Autowired
		Environment environment;

		@Test
		void theApplicationsProductionSettingsDoNotReachTheTestContext() {
			assertThat(this.environment.getProperty("lifecycle.global-shutdown-timeout")).isEqualTo("60s");
			assertThat(this.environment.getProperty("lifecycle.drain-delay")).isEqualTo("0s");
			assertThat(this.environment.getProperty("lifecycle.pre-stop.enabled")).isEqualTo("false");
			assertThat(this.context.getBean(ShutdownExit.class).listensToSignals()).isFalse();
		}

		@Test
		void aTriggeredShutdownDoesNotWaitForTheConfiguredDrainDelay() {
			LifecycleTestSupport lifecycle = LifecycleTestSupport.of(this.context);
			lifecycle.triggerShutdown();
			// The yml's 30 s drain delay would hold the report far beyond this bound.
			ShutdownReport report = lifecycle.awaitReport(Duration.ofSeconds(15));
			assertThat(report.clean()).isTrue();
			assertThat(((ConfigurableApplicationContext) this.context).isActive()).isTrue();
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
