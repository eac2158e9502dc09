package dev.lifecycle.autoconfigure.process;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lifecycle.autoconfigure.TestRunners;
import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.spring.LifecycleExit;
import dev.lifecycle.spring.ManagedComponent;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A shutdown that a component starts ends the application by itself: readiness DOWN, the
 * sequence, the context closed, the exit code handed to {@link LifecycleExit}.
 */
class ShutdownExitTests {

	private final List<Integer> exits = new CopyOnWriteArrayList<>();

	@Test
	void componentFailureClosesTheContextAndExitsWithCode1() {
		TestRunners.lifecycle()
			.withBean(LifecycleExit.class, () -> this.exits::add)
			.withUserConfiguration(FailingConfiguration.class)
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				manager.handle("consumer").orElseThrow().signalFailure("broker gone");
				await().atMost(Duration.ofSeconds(10)).until(() -> !this.exits.isEmpty());
				assertThat(context.isClosed()).isTrue();
				assertThat(this.exits).containsExactly(ExitCodes.FAILURE);
			});
	}

	@Test
	void requestedShutdownExitsWithCode0() {
		TestRunners.lifecycle()
			.withBean(LifecycleExit.class, () -> this.exits::add)
			.withUserConfiguration(FailingConfiguration.class)
			.run((context) -> {
				context.getBean(LifecycleManager.class).handle("consumer").orElseThrow().requestShutdown();
				await().atMost(Duration.ofSeconds(10)).until(() -> !this.exits.isEmpty());
				assertThat(this.exits).containsExactly(ExitCodes.CLEAN);
			});
	}

	@Test
	void plainContextCloseNeverExitsTheProcess() {
		TestRunners.lifecycle()
			.withBean(LifecycleExit.class, () -> this.exits::add)
			.withUserConfiguration(FailingConfiguration.class)
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				context.close();
				assertThat(manager.report()).isPresent();
			});
		assertThat(this.exits).isEmpty();
	}

	@Test
	void springApplicationExitRunsTheWholeSequenceAndReturnsTheReportsExitCode() {
		TestRunners.lifecycle()
			.withBean(LifecycleExit.class, () -> this.exits::add)
			.withUserConfiguration(FailingConfiguration.class)
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				int exitCode = SpringApplication.exit(context);
				assertThat(exitCode).isEqualTo(ExitCodes.CLEAN);
				ShutdownReport report = manager.report().orElseThrow();
				assertThat(report.trigger().component())
					.isEqualTo(dev.lifecycle.core.TriggerSource.SPRING_APPLICATION_EXIT.label());
				assertThat(report.component("consumer").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
				assertThat(context.isActive()).isFalse();
			});
		// The caller of SpringApplication.exit owns the process, not Lifecycle.
		assertThat(this.exits).isEmpty();
	}

	@Test
	void readinessRefusesTrafficBeforeAnyComponentIsToldToStopAndStaysDownIfBootLaterAcceptsTraffic() {
		TestRunners.lifecycle().withUserConfiguration(FailingConfiguration.class).run((context) -> {
			ApplicationAvailability availability = context.getBean(ApplicationAvailability.class);
			AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
			Blocking consumer = context.getBean(Blocking.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> consumer.handle != null);
			consumer.handle.onShutdown(() -> consumer.readinessWhenToldToStop = availability.getReadinessState());
			consumer.handle.requestShutdown();
			// Heard on the sequence's thread, as its first act.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> availability.getReadinessState() == ReadinessState.REFUSING_TRAFFIC);
			// As if the shutdown began before Boot declared the application ready.
			AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
			assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
			await().atMost(Duration.ofSeconds(10)).until(() -> consumer.readinessWhenToldToStop != null);
			assertThat(consumer.readinessWhenToldToStop).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
		});
	}

	@ManagedComponent(value = "consumer", gracefulShutdown = "5s")
	static class Blocking implements ActiveComponent {

		volatile ComponentHandle handle;

		volatile ReadinessState readinessWhenToldToStop;

		@Override
		public void run(ComponentHandle handle) throws Exception {
			this.handle = handle;
			handle.awaitShutdown();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FailingConfiguration {

		@Bean
		Blocking consumer() {
			return new Blocking();
		}

	}

}
