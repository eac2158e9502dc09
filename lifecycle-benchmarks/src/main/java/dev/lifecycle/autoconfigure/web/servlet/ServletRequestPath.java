package dev.lifecycle.autoconfigure.web.servlet;

import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.web.RequestPaths;
import dev.lifecycle.core.LifecycleManager;
import jakarta.servlet.Filter;

import org.springframework.core.env.Environment;

/**
 * Lifecycle's servlet filter as {@link LifecycleServletDrainAutoConfiguration} registers
 * it with the default settings ({@code lifecycle.connection-close=true}), for the
 * per-request benchmarks.
 */
public final class ServletRequestPath {

	private ServletRequestPath() {
	}

	public static Filter connectionDrainFilter(LifecycleManager manager, Environment environment) {
		ServletTraffic traffic = new ServletTraffic(manager, RequestPaths.ownRequests(environment));
		return new ConnectionDrainFilter(manager, new LifecycleManagerProperties().isConnectionClose(), traffic,
				RequestPaths.streamDrain(manager), RequestPaths.http2Drain(manager),
				PipelinedServletRequests.resolve(new InternalHooks()));
	}

	/** The class of the response Lifecycle's filter hands on while serving. */
	public static Class<?> closingResponseClass() {
		return ClosingResponse.class;
	}

}
