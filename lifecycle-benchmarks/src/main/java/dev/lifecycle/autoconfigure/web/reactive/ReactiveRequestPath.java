package dev.lifecycle.autoconfigure.web.reactive;

import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.web.RequestPaths;
import dev.lifecycle.core.LifecycleManager;

import org.springframework.core.env.Environment;
import org.springframework.web.server.WebFilter;

/**
 * Lifecycle's web filter as {@link LifecycleReactiveDrainAutoConfiguration} makes it with
 * the default settings, for the per-request benchmarks; without Reactor Netty on the
 * class path, as on any other reactive server (its pipelining hook is read only during a
 * shutdown).
 */
public final class ReactiveRequestPath {

	private ReactiveRequestPath() {
	}

	public static WebFilter connectionDrainWebFilter(LifecycleManager manager, Environment environment) {
		return new ConnectionDrainWebFilter(manager, new LifecycleManagerProperties().isConnectionClose(),
				RequestPaths.streamDrain(manager), RequestPaths.http2Drain(manager),
				RequestPaths.ownRequests(environment), null);
	}

}
