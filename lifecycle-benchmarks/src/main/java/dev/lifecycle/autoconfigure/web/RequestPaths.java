package dev.lifecycle.autoconfigure.web;

import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.core.LifecycleManager;

import org.springframework.core.env.Environment;

/**
 * The web drain's shared parts as {@link LifecycleWebAutoConfiguration} makes them with
 * the default settings, for the per-request benchmarks (in this package because their
 * constructors are package-private; split packages are fine on the class path).
 */
public final class RequestPaths {

	private RequestPaths() {
	}

	/** The stream drain of the default settings, listening to the manager. */
	public static StreamDrain streamDrain(LifecycleManager manager) {
		LifecycleManagerProperties properties = new LifecycleManagerProperties();
		StreamDrain drain = new StreamDrain(properties.getStreams().getEndAt(), StreamPacing.INSTANT,
				properties.getStreams().getSseRetry());
		manager.addListener(drain);
		return drain;
	}

	/** The HTTP/2 drain, listening to the manager. */
	public static Http2Drain http2Drain(LifecycleManager manager) {
		Http2Drain drain = new Http2Drain();
		manager.addListener(drain);
		return drain;
	}

	/** The actuator's paths of the application's settings. */
	public static OwnRequests ownRequests(Environment environment) {
		return OwnRequests.from(environment);
	}

}
