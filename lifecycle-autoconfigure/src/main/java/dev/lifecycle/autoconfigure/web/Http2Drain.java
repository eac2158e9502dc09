package dev.lifecycle.autoconfigure.web;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.ShutdownTrigger;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Drains HTTP/2 connections: from the first instant of a shutdown every open HTTP/2
 * connection receives a graceful GOAWAY (error code {@code NO_ERROR}), and so does every
 * connection that carries a request later in the drain. A GOAWAY is HTTP/2's own "finish
 * what you started, open a new connection for the rest": the streams in flight are served
 * to the end, and the client opens its next connection through the load balancer, to a
 * pod that is still ready. HTTP/2 has no {@code Connection: close}; each web server sends
 * GOAWAY its own way ({@link Server}).
 */
@Internal
public final class Http2Drain implements LifecycleListener {

	private static final Log logger = LogFactory.getLog(Http2Drain.class);

	private final List<Server> servers = new CopyOnWriteArrayList<>();

	private volatile boolean shuttingDown;

	/** Adds one web server's way of sending GOAWAY. */
	public void register(Server server) {
		this.servers.add(server);
		if (this.shuttingDown) {
			goAwayAll(server);
		}
	}

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
		this.shuttingDown = true;
		this.servers.forEach(Http2Drain::goAwayAll);
	}

	/**
	 * Sends GOAWAY on the HTTP/2 connection that carries this request, if the shutdown
	 * began.
	 * @param request the servlet request, or the native request of a reactive server
	 */
	public void onRequest(Object request) {
		if (!this.shuttingDown) {
			return;
		}
		for (Server server : this.servers) {
			try {
				server.goAway(request);
			}
			catch (RuntimeException ex) {
				logger.debug("Lifecycle: could not send an HTTP/2 GOAWAY", ex);
			}
		}
	}

	private static void goAwayAll(Server server) {
		try {
			server.goAwayAll();
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: could not send HTTP/2 GOAWAY to open connections", ex);
		}
	}

	/**
	 * How one web server sends a graceful GOAWAY; sending it twice on a connection is
	 * harmless.
	 */
	public interface Server {

		/** Sends GOAWAY on every open HTTP/2 connection, idle ones included. */
		void goAwayAll();

		/**
		 * Sends GOAWAY on the connection of this request if it is an HTTP/2 connection.
		 * @param request the servlet request, or the native request of a reactive server
		 */
		void goAway(Object request);

	}

}
