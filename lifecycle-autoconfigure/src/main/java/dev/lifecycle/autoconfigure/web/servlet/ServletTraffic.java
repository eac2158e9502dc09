package dev.lifecycle.autoconfigure.web.servlet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;

import dev.lifecycle.autoconfigure.RequestsInFlight;
import dev.lifecycle.autoconfigure.web.OwnRequests;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleManager;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Meters the application's requests for the shutdown: activity for the adaptive drain and
 * server errors for the report, both counted only once the shutdown has begun, the only
 * time they are read, and the requests in flight, which the web server's stop cuts. The
 * actuator's requests (probes answering 503 during the drain, Lifecycle's own endpoint)
 * and the error page of a request already counted are neither. While serving, each
 * request costs one read of the shutdown flag and its entry in the set of requests in
 * flight.
 */
final class ServletTraffic implements RequestsInFlight {

	private final LifecycleManager manager;

	private final OwnRequests own;

	private final Set<HttpServletRequest> inFlight = ConcurrentHashMap.newKeySet();

	/** Cut by the stop and counted then: not counted again when they fail. */
	private final Set<HttpServletRequest> cut = ConcurrentHashMap.newKeySet();

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

	/** A request's first dispatch began: it is in flight until it ends. */
	void began(HttpServletRequest request) {
		this.inFlight.add(ContainerRequests.unwrap(request));
	}

	/**
	 * A dispatch ended with the request's response complete. A cut request stays known as
	 * cut: its last dispatch may still answer a server error, which is not a second
	 * failure (the set fills only at the stop, when no request arrives any more).
	 */
	void ended(HttpServletRequest request) {
		this.inFlight.remove(ContainerRequests.unwrap(request));
	}

	/** A dispatch ended with the request asynchronous: in flight until it completes. */
	void endsWith(AsyncContext async, HttpServletRequest request) {
		async.addListener(new Ending(request));
	}

	/** A request failed: thrown through the filter, or answered with a server error. */
	void failed(HttpServletRequest request) {
		if (this.manager.isShutdownInitiated() && !this.cut.contains(ContainerRequests.unwrap(request))
				&& counts(request)) {
			LifecycleHost.of(this.manager).recordFailedRequest();
		}
	}

	/** Answered, and not asynchronously: a failure if its status is a server error. */
	void answered(HttpServletRequest request, int status) {
		if (status >= 500) {
			failed(request);
		}
	}

	@Override
	public List<String> cutByTheStop() {
		List<String> names = new ArrayList<>();
		for (HttpServletRequest request : this.inFlight) {
			try {
				if (!isOwn(request) && this.cut.add(request)) {
					names.add(request.getMethod() + " " + request.getRequestURI());
					LifecycleHost.of(this.manager).recordFailedRequest();
					abortOnJetty(request);
				}
			}
			catch (IllegalStateException ex) {
				// It ended while being read: the server recycled it, so it was not cut.
				this.cut.remove(request);
			}
		}
		return names;
	}

	/**
	 * Jetty's stop would end a cut body as if it were whole (a short or empty 200), so
	 * its response is aborted first; Tomcat's stop closes the connection under it by
	 * itself.
	 */
	private static void abortOnJetty(HttpServletRequest request) {
		if (JettyServed.serves(request)) {
			try {
				JettyRequests.abort(request, new CancellationException("cut by the web server's stop"));
			}
			catch (RuntimeException | LinkageError ex) {
				// Another Jetty than the one compiled against: its stop ends the body.
			}
		}
	}

	private boolean counts(HttpServletRequest request) {
		return request.getDispatcherType() != DispatcherType.ERROR && !isOwn(request);
	}

	private boolean isOwn(HttpServletRequest request) {
		String uri = request.getRequestURI();
		String path = uri.substring(Math.min(request.getContextPath().length(), uri.length()));
		return this.own.isOwn(path, request.getLocalPort());
	}

	/** Ends an asynchronous request's flight when it completes, however it completes. */
	private final class Ending implements AsyncListener {

		private final HttpServletRequest request;

		Ending(HttpServletRequest request) {
			this.request = request;
		}

		@Override
		public void onComplete(AsyncEvent event) {
			ended(this.request);
		}

		@Override
		public void onTimeout(AsyncEvent event) {
		}

		@Override
		public void onError(AsyncEvent event) {
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
			// A new asynchronous cycle drops the listeners of the last one.
			AsyncContext async = event.getAsyncContext();
			if (async != null) {
				async.addListener(this);
			}
		}

	}

}
