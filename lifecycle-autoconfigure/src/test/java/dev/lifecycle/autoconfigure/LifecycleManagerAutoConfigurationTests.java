package dev.lifecycle.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.lifecycle.autoconfigure.actuate.LifecycleEndpoint;
import dev.lifecycle.autoconfigure.actuate.LifecycleHealthIndicator;
import dev.lifecycle.autoconfigure.component.LifecycleCoordinator;
import dev.lifecycle.autoconfigure.component.ManagedComponentRegistrar;
import dev.lifecycle.autoconfigure.metrics.MicrometerLifecycleMetrics;
import dev.lifecycle.autoconfigure.process.ShutdownExit;
import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.spring.LifecycleExit;
import dev.lifecycle.spring.ManagedComponent;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class LifecycleManagerAutoConfigurationTests {

	@TempDir
	Path tempDir;

	@Test
	void createsTheEngineAndItsSpringIntegration() {
		TestRunners.lifecycle().withBean(MeterRegistry.class, SimpleMeterRegistry::new).run((context) -> {
			assertThat(context).hasSingleBean(LifecycleManager.class)
				.hasSingleBean(LifecycleCoordinator.class)
				.hasSingleBean(ManagedComponentRegistrar.class)
				.hasSingleBean(ShutdownExit.class)
				.hasSingleBean(ReadinessStatePublisher.class)
				.hasSingleBean(LifecycleExit.class)
				.hasSingleBean(MicrometerLifecycleMetrics.class)
				.hasSingleBean(LifecycleHealthIndicator.class)
				.doesNotHaveBean(LifecycleEndpoint.class);
			assertThat(context.getBean(ShutdownExit.class).listensToSignals()).isFalse();
			assertThat(context.getBean(LifecycleManager.class).serviceName()).isEqualTo("orders");
		});
	}

	@Test
	void trapsSignalsByDefault() {
		TestRunners.lifecycle()
			.withPropertyValues("lifecycle.signals.trap=true")
			.run((context) -> assertThat(context.getBean(ShutdownExit.class).listensToSignals()).isTrue());
	}

	@Test
	void disablingLifecycleLeavesOnlyAnInertManager() {
		TestRunners.lifecycle()
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("lifecycle.enabled=false", "management.endpoints.jmx.exposure.include=lifecycle",
					"spring.jmx.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(LifecycleManager.class)
				.doesNotHaveBean(LifecycleCoordinator.class)
				.doesNotHaveBean(ManagedComponentRegistrar.class)
				.doesNotHaveBean(ShutdownExit.class)
				.doesNotHaveBean(MicrometerLifecycleMetrics.class)
				.doesNotHaveBean(LifecycleHealthIndicator.class)
				.doesNotHaveBean(LifecycleEndpoint.class)
				.doesNotHaveBean(LifecycleExit.class)
				.doesNotHaveBean(LifecycleManagerProperties.class));
	}

	@Test
	void withLifecycleDisabledBeansThatUseTheManagerAndHandlesStillStartAndNothingIsStartedOrStopped() {
		AtomicReference<LifecycleManager> managerRef = new AtomicReference<>();
		TestRunners.lifecycle()
			.withPropertyValues("lifecycle.enabled=false", "lifecycle.pre-stop.enabled=true",
					"lifecycle.pre-stop.path=" + this.tempDir.resolve("shutdown"), "lifecycle.run-marker.enabled=true",
					"lifecycle.run-marker.path=" + this.tempDir.resolve("running"))
			.withUserConfiguration(InertUsersConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				managerRef.set(manager);
				InertUser user = context.getBean(InertUser.class);
				assertThat(user.handle.name()).isEqualTo("worker");
				assertThat(user.handle.isShuttingDown()).isFalse();
				try (var section = user.handle.critical()) {
					user.handle.reportHealthy();
				}
				// Never started: the active component's run method is never called.
				assertThat(context.getBean(InertWorker.class).runs).hasValue(0);
				assertThat(manager.components()).extracting((view) -> view.name() + " " + view.state())
					.containsExactly("worker REGISTERED", "work-executor REGISTERED");
				// A critical executor still runs what it is given.
				assertThat(user.executor.submit(() -> "done").get(10, TimeUnit.SECONDS)).isEqualTo("done");
				Files.createFile(this.tempDir.resolve("shutdown"));
			});
		// Closing the context ran no sequence; the pre-stop file and run marker were
		// never touched.
		assertThat(managerRef.get().isShutdownInitiated()).isFalse();
		assertThat(managerRef.get().report()).isEmpty();
		assertThat(this.tempDir.resolve("running")).doesNotExist();
	}

	@Test
	void backsOffFromMetricsWithoutMicrometer() {
		TestRunners.lifecycle()
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasSingleBean(LifecycleManager.class)
				.doesNotHaveBean(MicrometerLifecycleMetrics.class));
	}

	@Test
	void backsOffFromMetricsWithoutAMeterRegistry() {
		TestRunners.lifecycle()
			.run((context) -> assertThat(context).hasSingleBean(LifecycleManager.class)
				.doesNotHaveBean(MicrometerLifecycleMetrics.class));
	}

	@Test
	void backsOffFromHealthAndEndpointWithoutActuator() {
		TestRunners.lifecycle()
			.withClassLoader(
					new FilteredClassLoader("org.springframework.boot.actuate", "org.springframework.boot.health"))
			.withPropertyValues("management.endpoints.web.exposure.include=lifecycle")
			.run((context) -> assertThat(context).hasSingleBean(LifecycleManager.class)
				.hasSingleBean(LifecycleCoordinator.class)
				.doesNotHaveBean(LifecycleHealthIndicator.class)
				.doesNotHaveBean(LifecycleEndpoint.class));
	}

	@Test
	void healthContributorCanBeDisabled() {
		TestRunners.lifecycle()
			.withPropertyValues("management.health.lifecycle.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LifecycleHealthIndicator.class));
	}

	@Test
	void userManagerReplacesOursAndStillGetsTheSpringIntegration() {
		TestRunners.lifecycle().withUserConfiguration(UserManagerConfiguration.class).run((context) -> {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			ApplicationAvailability availability = context.getBean(ApplicationAvailability.class);
			assertThat(manager.serviceName()).isEqualTo("user-built");
			manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
			// The coordinator attached the readiness listener and the exit to the user's
			// manager.
			Awaitility.await()
				.atMost(Duration.ofSeconds(10))
				.until(() -> availability.getReadinessState() == ReadinessState.REFUSING_TRAFFIC);
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(context::isClosed);
		});
	}

	@Test
	void aUserBeanNamedLifecycleMetricsReplacesOurs() {
		dev.lifecycle.core.LifecycleListener metrics = new dev.lifecycle.core.LifecycleListener() {
		};
		TestRunners.lifecycle()
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withBean("lifecycleMetrics", dev.lifecycle.core.LifecycleListener.class, () -> metrics)
			.run((context) -> assertThat(context).doesNotHaveBean(MicrometerLifecycleMetrics.class)
				.getBean("lifecycleMetrics")
				.isSameAs(metrics));
	}

	@Test
	@Tag("jdk25")
	void engineThreadsAreVirtualWhenSpringBootsVirtualThreadsAreOn() {
		org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.version().feature() >= 21,
				"virtual threads need JDK 21 or later; CI runs the jdk25-tagged tests on its second JDK");
		java.util.concurrent.atomic.AtomicReference<Thread> sequenceThread = new java.util.concurrent.atomic.AtomicReference<>();
		TestRunners.lifecycle().withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			context.getBean(LifecycleManager.class).addListener(new dev.lifecycle.core.LifecycleListener() {
				@Override
				public void onShutdownCompleted(dev.lifecycle.core.ShutdownReport report) {
					sequenceThread.set(Thread.currentThread());
				}
			});
			context.close();
		});
		assertThat(sequenceThread.get()).isNotNull();
		assertThat(sequenceThread.get().getName()).isEqualTo("lifecycle-shutdown");
		assertThat(sequenceThread.get()).extracting((thread) -> {
			try {
				return Thread.class.getMethod("isVirtual").invoke(thread);
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException(ex);
			}
		}).isEqualTo(true);
	}

	@Test
	void userExitReplacesOurs() {
		LifecycleExit exit = (code) -> {
		};
		TestRunners.lifecycle()
			.withBean(LifecycleExit.class, () -> exit)
			.run((context) -> assertThat(context).getBean(LifecycleExit.class).isSameAs(exit));
	}

	@Test
	void userHealthIndicatorReplacesOurs() {
		HealthIndicator indicator = () -> Health.up().build();
		TestRunners.lifecycle()
			.withBean("lifecycleHealthIndicator", HealthIndicator.class, () -> indicator)
			.run((context) -> assertThat(context).doesNotHaveBean(LifecycleHealthIndicator.class)
				.getBean("lifecycleHealthIndicator")
				.isSameAs(indicator));
	}

	@Test
	void endpointExistsOnlyWhenExposed() {
		TestRunners.lifecycle()
			.withPropertyValues("spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=lifecycle")
			.run((context) -> assertThat(context).hasSingleBean(LifecycleEndpoint.class));
	}

	@Test
	void userEndpointReplacesOurs() {
		TestRunners.lifecycle()
			.withPropertyValues("spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=lifecycle")
			.withUserConfiguration(UserEndpointConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(LifecycleEndpoint.class)
				.hasBean("userLifecycleEndpoint"));
	}

	@Test
	void serviceNameDefaultsToTheApplicationNameAndCanBeSet() {
		TestRunners.lifecycle()
			.withPropertyValues("lifecycle.service-name=orders-api")
			.run((context) -> assertThat(context.getBean(LifecycleManager.class).serviceName())
				.isEqualTo("orders-api"));
	}

	@Test
	void applicationWithoutAnyNameStartsAsApplicationWithOneWarningSayingHowToNameIt(CapturedOutput output) {
		TestRunners.lifecycle().withPropertyValues("spring.application.name=").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(LifecycleManager.class).serviceName()).isEqualTo("application");
		});
		assertThat(output.toString().split("neither 'spring.application.name' nor 'lifecycle.service-name' is set", -1))
			.hasSize(2);
		assertThat(output).contains("Set spring.application.name (for example spring.application.name=orders)");
	}

	@Test
	void drainDelayIsFiveSecondsOnKubernetesAndZeroElsewhere() {
		MockEnvironment kubernetes = new MockEnvironment().withProperty("spring.application.name", "orders")
			.withProperty("spring.main.cloud-platform", "kubernetes");
		MockEnvironment laptop = new MockEnvironment().withProperty("spring.application.name", "orders");
		assertThat(ManagerSettings.of(new LifecycleManagerProperties(), kubernetes).drainDelay())
			.isEqualTo(Duration.ofSeconds(5));
		assertThat(ManagerSettings.of(new LifecycleManagerProperties(), laptop).drainDelay()).isZero();
		LifecycleManagerProperties explicit = new LifecycleManagerProperties();
		explicit.setDrainDelay(Duration.ofSeconds(2));
		assertThat(ManagerSettings.of(explicit, kubernetes).drainDelay()).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void preStopFileIsWatchedByDefaultOnlyOnKubernetesOrWhenAPathIsSet() {
		MockEnvironment kubernetes = new MockEnvironment().withProperty("spring.application.name", "orders")
			.withProperty("spring.main.cloud-platform", "kubernetes");
		MockEnvironment laptop = new MockEnvironment().withProperty("spring.application.name", "orders");
		assertThat(ManagerSettings.of(new LifecycleManagerProperties(), laptop).preStopFile()).isNull();
		assertThat(ManagerSettings.of(new LifecycleManagerProperties(), kubernetes).preStopFile())
			.isEqualTo(Path.of("/tmp/shutdown"));
		LifecycleManagerProperties withPath = new LifecycleManagerProperties();
		withPath.getPreStop().setPath("/var/run/orders/shutdown");
		assertThat(ManagerSettings.of(withPath, laptop).preStopFile()).isEqualTo(Path.of("/var/run/orders/shutdown"));
		LifecycleManagerProperties enabled = new LifecycleManagerProperties();
		enabled.getPreStop().setEnabled(true);
		assertThat(ManagerSettings.of(enabled, laptop).preStopFile()).isEqualTo(Path.of("/tmp/shutdown"));
		LifecycleManagerProperties disabled = new LifecycleManagerProperties();
		disabled.getPreStop().setEnabled(false);
		disabled.getPreStop().setPath("/var/run/orders/shutdown");
		assertThat(ManagerSettings.of(disabled, kubernetes).preStopFile()).isNull();
	}

	@Test
	void runMarkerDefaultsToAFileNamedAfterTheServiceInTheTempDirectory() {
		MockEnvironment environment = new MockEnvironment().withProperty("spring.application.name", "orders api");
		ManagerSettings settings = ManagerSettings.of(new LifecycleManagerProperties(), environment);
		assertThat(settings.runMarker())
			.isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "lifecycle-orders_api.running"));
		assertThat(settings.globalShutdownTimeout()).isEqualTo(Duration.ofSeconds(60));
		assertThat(settings.healthPollInterval()).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void coordinatorStopsBeforeTheWebServerBeginsItsGracefulShutdown() {
		// Higher phases stop first: the drain must finish while the server still accepts.
		assertThat(LifecycleCoordinator.PHASE).isGreaterThan(WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE)
			.isGreaterThan(WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE);
	}

	@Configuration(proxyBeanMethods = false)
	static class UserManagerConfiguration {

		@Bean
		LifecycleManager userLifecycleManager() {
			return LifecycleManager.builder("user-built").build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserEndpointConfiguration {

		@Bean
		LifecycleEndpoint userLifecycleEndpoint(LifecycleManager manager) {
			return new LifecycleEndpoint(manager);
		}

	}

	@ManagedComponent("worker")
	static class InertWorker implements ActiveComponent {

		final AtomicInteger runs = new AtomicInteger();

		@Override
		public void run(ComponentHandle handle) {
			this.runs.incrementAndGet();
		}

	}

	static class InertUser {

		final ComponentHandle handle;

		final ExecutorService executor;

		InertUser(LifecycleManager manager) {
			this.handle = manager.handle("worker").orElseThrow();
			this.executor = manager.registerExecutor("work-executor", ComponentOptions.defaults(),
					Executors.newSingleThreadExecutor());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class InertUsersConfiguration {

		@Bean
		InertWorker inertWorker() {
			return new InertWorker();
		}

		@Bean
		InertUser inertUser(LifecycleManager manager, InertWorker worker) {
			return new InertUser(manager);
		}

	}

}
