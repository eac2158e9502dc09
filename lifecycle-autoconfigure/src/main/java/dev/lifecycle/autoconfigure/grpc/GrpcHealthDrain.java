package dev.lifecycle.autoconfigure.grpc;

import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.ShutdownTrigger;
import io.grpc.protobuf.services.HealthStatusManager;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;

/**
 * Turns every service of the standard gRPC health service ({@code grpc.health.v1})
 * NOT_SERVING at the first instant of a shutdown, as readiness turns DOWN: a client
 * watching health hears it at once, not at Spring Boot's next scheduled health update,
 * and no later update turns it back. Ordered first among the application's listeners: the
 * others of the trigger (metrics, readiness, observations) would otherwise delay what a
 * client hears, by a lot in a process that has not yet run those paths.
 */
final class GrpcHealthDrain implements LifecycleListener, PriorityOrdered {

	private static final Log logger = LogFactory.getLog(GrpcHealthDrain.class);

	private final ObjectProvider<HealthStatusManager> health;

	GrpcHealthDrain(ObjectProvider<HealthStatusManager> health) {
		this.health = health;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
		this.health.orderedStream().forEach((manager) -> {
			manager.enterTerminalState();
			logger.info("Lifecycle: gRPC health service turned NOT_SERVING");
		});
	}

}
