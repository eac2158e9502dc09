package dev.lifecycle.autoconfigure.web;

import java.util.List;

import dev.lifecycle.core.Internal;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Tells the requests that are the platform's, not the application's: the actuator's
 * endpoints (the probes among them, and Lifecycle's own endpoint), at the actuator's
 * configured base path, and the health groups' additional paths on the main port. Such a
 * request is neither traffic that keeps an adaptive drain going nor a failed request of
 * the shutdown: a readiness probe answered 503 during the drain is the drain working. On
 * a management port of its own every request is the actuator's.
 */
@Internal
public final class OwnRequests {

	private final List<String> prefixes;

	private final List<String> paths;

	private final int managementPort;

	OwnRequests(List<String> prefixes, List<String> paths, int managementPort) {
		this.prefixes = prefixes;
		this.paths = paths;
		this.managementPort = managementPort;
	}

	/**
	 * From the application's settings: {@code management.endpoints.web.base-path} (the
	 * actuator's default when unset), {@code management.server.port} and
	 * {@code management.endpoint.health.probes.add-additional-paths}.
	 */
	public static OwnRequests from(Environment environment) {
		Binder binder = Binder.get(environment);
		String basePath = trimmed(binder.bind("management.endpoints.web.base-path", String.class).orElse("/actuator"));
		int port = binder.bind("management.server.port", Integer.class).orElse(-1);
		boolean additional = binder.bind("management.endpoint.health.probes.add-additional-paths", Boolean.class)
			.orElse(false);
		// An empty base path is allowed only on a port of the management's own, where the
		// port tells.
		List<String> prefixes = basePath.isEmpty() ? List.of() : List.of(basePath);
		return new OwnRequests(prefixes, additional ? List.of("/livez", "/readyz") : List.of(), port);
	}

	private static String trimmed(String path) {
		String trimmed = path.trim();
		while (trimmed.endsWith("/")) {
			trimmed = trimmed.substring(0, trimmed.length() - 1);
		}
		return (trimmed.isEmpty() || trimmed.startsWith("/")) ? trimmed : "/" + trimmed;
	}

	/**
	 * Whether a request is the actuator's.
	 * @param path the request's path within the application (after the context path)
	 * @param localPort the port it arrived on
	 */
	public boolean isOwn(String path, int localPort) {
		if (localPort == this.managementPort && localPort > 0) {
			return true;
		}
		for (String prefix : this.prefixes) {
			if (path.startsWith(prefix) && (path.length() == prefix.length() || path.charAt(prefix.length()) == '/')) {
				return true;
			}
		}
		return this.paths.contains(path);
	}

}
