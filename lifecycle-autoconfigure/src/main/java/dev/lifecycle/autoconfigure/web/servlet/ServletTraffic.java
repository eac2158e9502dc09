package dev.lifecycle.autoconfigure.web.servlet;

import dev.lifecycle.autoconfigure.web.OwnRequests;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleManager;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Meters the application's requests for the shutdown: activity for the adaptive drain and
 * server errors for the report, both counted only once the shutdown has begun, the only
 * time they are read. The actuator's requests (probes answering 503 during the drain,
 * Lifecycle's own endpoint) and the error page of a request already counted are neither.
 * While serving, each call costs one read of the shutdown flag.
 */
final class ServletTraffic {

	private final LifecycleManager manager;

	private final OwnRequests own;

	ServletTraffic(LifecycleManager manager, OwnRequests own) {
		this.manager = manager;
		this.own = own;
	}

	/** A request arrived: activity, once the shutdown has begun. */
	void arrived(HttpServletRequest request) {
		if (this.manager.isShutdownInitiated() && counts(request)) {
			LifecycleHost.of(this.manager).recordActivity();
		}
	}

	/** A request failed: thrown through the filter, or answered with a server error. */
	void failed(HttpServletRequest request) {
		if (this.manager.isShutdownInitiated() && counts(request)) {
			LifecycleHost.of(this.manager).recordFailedRequest();
		}
	}

	/** Answered, and not asynchronously: a failure if its status is a server error. */
	void answered(HttpServletRequest request, int status) {
		if (status >= 500) {
			failed(request);
		}
	}

	private boolean counts(HttpServletRequest request) {
		if (request.getDispatcherType() == DispatcherType.ERROR) {
			return false;
		}
		String uri = request.getRequestURI();
		String path = uri.substring(Math.min(request.getContextPath().length(), uri.length()));
		return !this.own.isOwn(path, request.getLocalPort());
	}

}
