package dev.lifecycle.autoconfigure.grpc;

import dev.lifecycle.autoconfigure.LifecycleManagerAutoConfiguration;
import dev.lifecycle.autoconfigure.component.LifecycleComponentAutoConfiguration;
import dev.lifecycle.autoconfigure.process.LifecycleProcessAutoConfiguration;
import dev.lifecycle.autoconfigure.web.LifecycleWebAutoConfiguration;
import dev.lifecycle.autoconfigure.web.http2.LifecycleHttp2AutoConfiguration;
import dev.lifecycle.autoconfigure.web.reactive.LifecycleReactiveDrainAutoConfiguration;
import dev.lifecycle.autoconfigure.web.servlet.LifecycleServletDrainAutoConfiguration;
import dev.lifecycle.autoconfigure.web.socket.LifecycleWebSocketAutoConfiguration;
import io.grpc.BindableService;
import io.grpc.ServerServiceDefinition;
import io.grpc.protobuf.services.HealthStatusManager;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.grpc.server.autoconfigure.GrpcServerAutoConfiguration;
import org.springframework.boot.grpc.server.autoconfigure.GrpcServerServicesAutoConfiguration;
import org.springframework.boot.grpc.server.autoconfigure.health.GrpcServerHealthAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the gRPC drain is on: with a Spring gRPC server (Netty or in-process) and
 * Lifecycle, unless switched off, and never without gRPC on the class path.
 */
class LifecycleGrpcAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
				LifecycleManagerAutoConfiguration.class, LifecycleProcessAutoConfiguration.class,
				LifecycleComponentAutoConfiguration.class, LifecycleWebAutoConfiguration.class,
				LifecycleHttp2AutoConfiguration.class, LifecycleServletDrainAutoConfiguration.class,
				LifecycleReactiveDrainAutoConfiguration.class, LifecycleWebSocketAutoConfiguration.class,
				GrpcServerServicesAutoConfiguration.class, GrpcServerAutoConfiguration.class,
				GrpcServerHealthAutoConfiguration.class, SslAutoConfiguration.class,
				LifecycleGrpcAutoConfiguration.class))
		.withPropertyValues("spring.application.name=orders", "lifecycle.signals.trap=false",
				"lifecycle.pre-stop.enabled=false", "lifecycle.run-marker.enabled=false",
				"lifecycle.halt-after-ceiling=false", "spring.grpc.server.port=0")
		.withBean("echoService", BindableService.class,
				() -> () -> ServerServiceDefinition.builder("test.Echo").build());

	@Test
	void springGrpcsServersDrainWithTheShutdown() {
		this.runner.withPropertyValues("spring.grpc.server.inprocess.name=orders-in-process").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean("nettyGrpcServerLifecycle")).isInstanceOf(DrainingGrpcServerLifecycle.class);
			assertThat(context.getBean("inProcessGrpcServerLifecycle")).isInstanceOf(DrainingGrpcServerLifecycle.class);
			assertThat(context).hasSingleBean(GrpcCallTracker.class)
				.hasSingleBean(GrpcServerDrain.class)
				.hasSingleBean(GrpcHealthDrain.class)
				.hasSingleBean(HealthStatusManager.class);
		});
	}

	@Test
	void switchedOffTheServerStopsAsSpringGrpcStopsIt() {
		this.runner.withPropertyValues("lifecycle.grpc.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(GrpcCallTracker.class)
				.doesNotHaveBean(GrpcServerDrain.class);
			assertThat(context.getBean("nettyGrpcServerLifecycle").getClass()).isEqualTo(GrpcServerLifecycle.class);
		});
	}

	@Test
	void theHealthServiceCanBeLeftAlone() {
		this.runner.withPropertyValues("lifecycle.grpc.health=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(GrpcHealthDrain.class)
				.hasSingleBean(GrpcServerDrain.class);
		});
	}

	@Test
	void withLifecycleOffNothingOfTheDrainIsThere() {
		this.runner.withPropertyValues("lifecycle.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(GrpcCallTracker.class);
			assertThat(context.getBean("nettyGrpcServerLifecycle").getClass()).isEqualTo(GrpcServerLifecycle.class);
		});
	}

	@Test
	void withoutGrpcOnTheClassPathTheApplicationStartsWithoutTheDrain() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
					LifecycleManagerAutoConfiguration.class, LifecycleProcessAutoConfiguration.class,
					LifecycleComponentAutoConfiguration.class, LifecycleWebAutoConfiguration.class,
					LifecycleHttp2AutoConfiguration.class, LifecycleServletDrainAutoConfiguration.class,
					LifecycleReactiveDrainAutoConfiguration.class, LifecycleWebSocketAutoConfiguration.class,
					LifecycleGrpcAutoConfiguration.class))
			.withPropertyValues("spring.application.name=orders", "lifecycle.signals.trap=false",
					"lifecycle.pre-stop.enabled=false", "lifecycle.run-marker.enabled=false",
					"lifecycle.halt-after-ceiling=false")
			.withClassLoader(
					new FilteredClassLoader("io.grpc", "org.springframework.grpc", "org.springframework.boot.grpc"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(GrpcCallTracker.class));
	}

}
