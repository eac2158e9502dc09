package dev.lifecycle.autoconfigure.grpc;

import java.time.Duration;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.grpc.server.autoconfigure.GrpcServerProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/**
 * Puts a {@link DrainingGrpcServerLifecycle} in place of each of Spring gRPC's own server
 * lifecycles (Netty, shaded Netty, in-process), with the same factory and Spring Boot's grace
 * period ({@code spring.grpc.server.shutdown.grace-period}). A lifecycle of another class, the
 * application's own, is left as it is.
 */
final class GrpcServerLifecyclePostProcessor implements BeanPostProcessor {

	private final ObjectProvider<GrpcCallTracker> calls;

	private final ApplicationEventPublisher publisher;

	private final ObjectProvider<GrpcServerProperties> properties;

	GrpcServerLifecyclePostProcessor(ObjectProvider<GrpcCallTracker> calls, ApplicationEventPublisher publisher,
			ObjectProvider<GrpcServerProperties> properties) {
		this.calls = calls;
		this.publisher = publisher;
		this.properties = properties;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		GrpcServerProperties properties = (bean.getClass() == GrpcServerLifecycle.class)
				? this.properties.getIfAvailable() : null;
		if (properties != null) {
			GrpcServerLifecycle lifecycle = (GrpcServerLifecycle) bean;
			// Spring Boot builds its lifecycles with this grace period.
			Duration gracePeriod = properties.getShutdown().getGracePeriod();
			return DrainingGrpcServerLifecycle.of(beanName, lifecycle.getFactory(), gracePeriod,
					this.calls.getObject(), this.publisher);
		}
		return bean;
	}

}
