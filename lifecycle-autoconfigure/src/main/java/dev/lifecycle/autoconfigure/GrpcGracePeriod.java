package dev.lifecycle.autoconfigure;

import java.time.Duration;

import dev.lifecycle.core.Internal;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.grpc.server.autoconfigure.GrpcServerProperties;
import org.springframework.core.env.Environment;

/**
 * Spring gRPC's grace period for the calls in flight once its server stops, read where no
 * {@link GrpcServerProperties} bean is at hand yet: bound from the environment onto
 * Spring gRPC's own properties class, so that its default stays Spring gRPC's. Loaded
 * only when that class is present.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
@Internal
public final class GrpcGracePeriod {

	/** The property, as the messages that name it give it. */
	public static final String PROPERTY = "spring.grpc.server.shutdown.grace-period";

	private GrpcGracePeriod() {
	}

	/**
	 * The grace period the environment sets, or Spring gRPC's default.
	 * @param environment the application's environment
	 * @return the grace period; negative when unbounded
	 */
	public static Duration of(Environment environment) {
		return Binder.get(environment)
			.bind("spring.grpc.server", GrpcServerProperties.class)
			.orElseGet(GrpcServerProperties::new)
			.getShutdown()
			.getGracePeriod();
	}

}
