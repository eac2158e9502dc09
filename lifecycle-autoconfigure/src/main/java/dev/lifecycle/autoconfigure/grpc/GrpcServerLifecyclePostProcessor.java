package dev.lifecycle.autoconfigure.grpc;

import java.time.Duration;

import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.core.LifecycleManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.grpc.server.autoconfigure.GrpcServerProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/**
 * Puts a {@link DrainingGrpcServerLifecycle} in place of each of Spring gRPC's own server
 * lifecycles (Netty, shaded Netty, in-process), with the same factory and Spring Boot's
 * grace period ({@code spring.grpc.server.shutdown.grace-period}). A lifecycle of another
 * class, the application's own, is left as it is.
 */
final class GrpcServerLifecyclePostProcessor implements BeanPostProcessor {

	private final ObjectProvider<GrpcCallTracker> calls;

	private final ApplicationEventPublisher publisher;

	private final ObjectProvider<GrpcServerProperties> properties;

	private final ObjectProvider<LifecycleGrpcProperties> drain;

	private final ObjectProvider<LifecycleManager> manager;

	private final ObjectProvider<InternalHooks> hooks;

	GrpcServerLifecyclePostProcessor(ObjectProvider<GrpcCallTracker> calls, ApplicationEventPublisher publisher,
			ObjectProvider<GrpcServerProperties> properties, ObjectProvider<LifecycleGrpcProperties> drain,
			ObjectProvider<LifecycleManager> manager, ObjectProvider<InternalHooks> hooks) {
		this.hooks = hooks;
		this.calls = calls;
		this.publisher = publisher;
		this.properties = properties;
		this.drain = drain;
		this.manager = manager;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		GrpcServerProperties properties = (bean.getClass() == GrpcServerLifecycle.class)
				? this.properties.getIfAvailable() : null;
		if (properties != null) {
			GrpcServerLifecycle lifecycle = (GrpcServerLifecycle) bean;
			// Spring Boot builds its lifecycles with this grace period.
			Duration gracePeriod = properties.getShutdown().getGracePeriod();
			Duration clientGrace = this.drain.getObject().getClientGrace();
			// The adopted lifecycle's component bears the bean's name.
			DrainingGrpcServerLifecycle.Drain drain = new DrainingGrpcServerLifecycle.Drain(clientGrace,
					(call) -> this.manager.ifAvailable(
							(manager) -> manager.handle(beanName).ifPresent((handle) -> handle.reportCut(call))));
			return DrainingGrpcServerLifecycle.of(beanName, lifecycle.getFactory(), gracePeriod, this.calls.getObject(),
					drain, this.publisher, this.hooks.getIfAvailable(InternalHooks::new));
		}
		return bean;
	}

}
