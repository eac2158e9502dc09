package dev.lifecycle.autoconfigure.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.Tier;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The {@code lifecycle} health contributor: per-component detail in the main health
 * group; {@code OUT_OF_SERVICE} once a shutdown has begun, else {@code DOWN} while a
 * standard or observability component is unhealthy (an advisory one never decides), else
 * {@code UP}. Never in the liveness group, because a stall is answered by a coordinated
 * shutdown, not by Kubernetes killing the pod; readiness is Spring Boot's own readiness
 * state alone.
 */
@Internal
public final class LifecycleHealthIndicator extends AbstractHealthIndicator {

	private final LifecycleManager manager;

	LifecycleHealthIndicator(LifecycleManager manager) {
		super("Lifecycle health check failed");
		this.manager = manager;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		ShutdownTrigger trigger = this.manager.trigger().orElse(null);
		Map<String, Object> components = new LinkedHashMap<>();
		boolean healthy = true;
		for (ComponentView view : this.manager.components()) {
			components.put(view.name(), details(view));
			healthy &= view.healthy() || view.tier() == Tier.ADVISORY;
		}
		if (trigger != null) {
			builder.outOfService()
				.withDetail("shutdown", Map.of("reason", trigger.reason().label(), "component", trigger.component()));
		}
		else if (healthy) {
			builder.up();
		}
		else {
			builder.down();
		}
		builder.withDetail("components", components);
	}

	private static Map<String, Object> details(ComponentView view) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("state", view.state());
		details.put("tier", view.tier());
		details.put("phase", view.phase());
		details.put("healthy", view.healthy());
		details.put("health", view.healthStatus());
		view.heartbeatAge().ifPresent((age) -> details.put("heartbeatAge", age.toString()));
		if (view.openCriticalSections() > 0) {
			details.put("openCriticalSections", view.openCriticalSections());
		}
		details.putAll(view.details());
		return details;
	}

}
