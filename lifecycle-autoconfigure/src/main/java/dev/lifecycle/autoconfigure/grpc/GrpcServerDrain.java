package dev.lifecycle.autoconfigure.grpc;

import java.util.List;

import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownStep;
import dev.lifecycle.core.StepReport;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/**
 * Drives the gRPC servers through a shutdown: GOAWAY when the drain delay ends (clients
 * pinned to this instance reconnect elsewhere, the calls in flight go on; an in-process
 * server keeps taking calls until it stops, after the components that call it), and the
 * cancellation of what is still running when a server's budget runs out or the global
 * ceiling fires.
 *
 * <p>
 * Ordered ahead of the stream drain, so that at the end of the drain delay a client reads
 * the GOAWAY before its stream ends, and retries on a new connection.
 */
final class GrpcServerDrain implements LifecycleListener, Ordered {

	private final ObjectProvider<GrpcServerLifecycle> lifecycles;

	GrpcServerDrain(ObjectProvider<GrpcServerLifecycle> lifecycles) {
		this.lifecycles = lifecycles;
	}

	@Override
	public int getOrder() {
		return 0;
	}

	@Override
	public void onStepCompleted(StepReport step) {
		if (step.kind() == ShutdownStep.DRAIN_DELAY) {
			// An in-process server has no client elsewhere to send away to: the
			// components that call it keep it until its own turn, after them.
			servers().stream()
				.filter((server) -> !server.servesOnlyThisProcess())
				.forEach(DrainingGrpcServerLifecycle::goAway);
		}
	}

	@Override
	public void onComponentEnded(ComponentReport report) {
		if (report.outcome() != Outcome.TIMEOUT) {
			return;
		}
		for (DrainingGrpcServerLifecycle server : servers()) {
			if (server.name().equals(report.name())) {
				server.cancel("its budget of the shutdown ran out");
			}
		}
	}

	@Override
	public void onShutdownCompleted(ShutdownReport report) {
		if (report.ceilingFired()) {
			servers().forEach((server) -> server.cancel("the global shutdown ceiling fired"));
		}
	}

	private List<DrainingGrpcServerLifecycle> servers() {
		return this.lifecycles.stream()
			.filter(DrainingGrpcServerLifecycle.class::isInstance)
			.map(DrainingGrpcServerLifecycle.class::cast)
			.toList();
	}

}
