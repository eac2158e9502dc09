package dev.lifecycle.autoconfigure.grpc;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import dev.lifecycle.autoconfigure.GrpcGracePeriod;
import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.ProcessLocalServer;
import io.grpc.Server;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.grpc.server.GrpcServerFactory;
import org.springframework.grpc.server.InProcessGrpcServerFactory;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;

/**
 * Spring gRPC's server lifecycle with its stop split in two, because a drain needs the
 * GOAWAY early and the wait late: {@link #goAway()} when the drain delay ends (no new
 * calls, calls in flight go on), then the stop in the standard drain waits for them and
 * {@link #cancel(String)} names what is left when the budget runs out. No client holds
 * the stop: a client's grace after the GOAWAY, new calls are refused, and once nothing
 * but streams whose clients do not read their end is left, the remaining connections are
 * closed (those streams reset). Every call cancelled by the grace period, the budget or
 * the ceiling is named to the engine, which reports the shutdown not clean. It counts as
 * running until its stop has released the server, so the stop always runs inside the
 * sequence; events, log lines and port stay Spring gRPC's.
 */
final class DrainingGrpcServerLifecycle extends GrpcServerLifecycle implements ProcessLocalServer {

	private static final Log logger = LogFactory.getLog(DrainingGrpcServerLifecycle.class);

	static final InternalHooks.Point STARTED_SERVER = new InternalHooks.Point("grpc.started-server",
			"the io.grpc.Server in the GrpcServerStartedEvent that Spring gRPC's GrpcServerLifecycle.start() publishes",
			"GOAWAY to gRPC clients when the drain delay ends, and the cancellation and naming of the calls left",
			"The gRPC server stops as Spring gRPC stops it, its calls cut at its grace period without being "
					+ "named in the report. Use the Spring gRPC version Spring Boot manages (Spring gRPC 1.1).");

	/** How often the stop looks whether only clients that do not act hold the server. */
	private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private final String name;

	private final Duration gracePeriod;

	private final GrpcCallTracker calls;

	private final Duration clientGrace;

	private final Consumer<String> cuts;

	private final ServerCapture capture;

	private boolean goneAway;

	private final AtomicBoolean cancelled = new AtomicBoolean();

	private long goAwayNanos;

	private volatile boolean released;

	private final InternalHooks hooks;

	private DrainingGrpcServerLifecycle(String name, GrpcServerFactory factory, Duration gracePeriod,
			GrpcCallTracker calls, Drain drain, ServerCapture capture, InternalHooks hooks) {
		super(factory, gracePeriod, capture);
		this.hooks = hooks;
		this.name = name;
		this.gracePeriod = gracePeriod;
		this.calls = calls;
		this.clientGrace = drain.clientGrace();
		this.cuts = drain.cuts();
		this.capture = capture;
	}

	/**
	 * @param name the bean's name, which is also its component's name
	 * @param factory the server factory Spring gRPC configured
	 * @param gracePeriod Spring gRPC's {@code spring.grpc.server.shutdown.grace-period}
	 * @param calls the calls the server has open
	 * @param drain what the server gives its clients and where it names the calls it cuts
	 * @param publisher where Spring gRPC's server events go
	 * @param hooks where the hook into the started server is recorded
	 */
	static DrainingGrpcServerLifecycle of(String name, GrpcServerFactory factory, Duration gracePeriod,
			GrpcCallTracker calls, Drain drain, ApplicationEventPublisher publisher, InternalHooks hooks) {
		return new DrainingGrpcServerLifecycle(name, factory, gracePeriod, calls, drain, new ServerCapture(publisher),
				hooks);
	}

	/**
	 * How the server treats clients that do not act on its drain, and where it names what
	 * it cuts.
	 *
	 * @param clientGrace how long a client has to act on the GOAWAY and to read the end
	 * of its stream
	 * @param cuts told each call cancelled, as its description
	 */
	record Drain(Duration clientGrace, Consumer<String> cuts) {
	}

	String name() {
		return this.name;
	}

	@Override
	public boolean servesOnlyThisProcess() {
		return getFactory() instanceof InProcessGrpcServerFactory;
	}

	@Override
	public void start() {
		synchronized (this) {
			this.goneAway = false;
		}
		this.cancelled.set(false);
		this.released = false;
		super.start();
		// The server is known only from the event its start publishes: resolved once it
		// started.
		if (this.capture.server != null) {
			this.hooks.resolved(STARTED_SERVER);
		}
		else {
			this.hooks.missed(STARTED_SERVER, "the start of '" + this.name + "' published no GrpcServerStartedEvent");
		}
	}

	@Override
	public boolean isRunning() {
		return this.capture.server != null && !this.released;
	}

	/**
	 * Sends GOAWAY on every connection and stops taking new calls; the calls in flight go
	 * on. Does nothing before the server started or after the first time.
	 */
	synchronized void goAway() {
		Server server = this.capture.server;
		if (server == null || this.released || this.goneAway) {
			return;
		}
		this.goneAway = true;
		this.goAwayNanos = System.nanoTime();
		this.calls.refuseNewCallsFrom(this.goAwayNanos + this.clientGrace.toNanos());
		server.shutdown();
		logger.info("Lifecycle: gRPC server '" + this.name + "' sent GOAWAY and takes no new calls ("
				+ this.calls.openCalls() + " call(s) in flight)");
	}

	/**
	 * Cancels the calls still running ({@code shutdownNow()}) and names them. Does
	 * nothing once the server has terminated.
	 * @param why what ran out, for the log
	 */
	void cancel(String why) {
		Server server = this.capture.server;
		if (server == null || server.isTerminated() || !this.cancelled.compareAndSet(false, true)) {
			return;
		}
		List<String> open = this.calls.describeOpenCalls();
		server.shutdownNow();
		if (!open.isEmpty()) {
			logger.warn("Lifecycle: gRPC server '" + this.name + "' cancelled " + open.size()
					+ " call(s) still running when " + why + ": " + String.join(", ", open));
			open.forEach(this.cuts);
		}
	}

	/**
	 * Closes the connections still open when no call is left but streams whose clients
	 * have not read their end: a client that ignored the GOAWAY (and the PING after it)
	 * would otherwise hold the connection, and a client that stopped reading its stream
	 * would hold the server, until the budget. Their streams are reset; no call the
	 * application works on is cut.
	 */
	private void closeConnections(Server server) {
		List<String> unread = this.calls.describeOpenCalls();
		server.shutdownNow();
		logger.info("Lifecycle: gRPC server '" + this.name + "' closed the connections still open "
				+ this.clientGrace.toMillis() + " ms after its GOAWAY with no call running"
				+ (unread.isEmpty() ? "" : "; reset " + unread.size()
						+ " ended stream(s) whose clients did not read their end: " + String.join(", ", unread)));
	}

	@Override
	protected void stopAndReleaseGrpcServer() {
		Server server = this.capture.server;
		try {
			if (server != null && !this.released) {
				goAway();
				if (!awaitGracePeriod(server)) {
					cancel("its grace period of " + this.gracePeriod.toMillis() + " ms (" + GrpcGracePeriod.PROPERTY
							+ ") ended");
				}
			}
			super.stopAndReleaseGrpcServer();
		}
		finally {
			this.released = true;
		}
	}

	/**
	 * Waits for the calls in flight, up to Spring gRPC's grace period counted from the
	 * GOAWAY; a cancellation (the budget ran out) ends the wait early. Once the client
	 * grace after the GOAWAY has passed and nothing is left but ends no client reads, the
	 * connections are closed.
	 * @return whether the server terminated
	 */
	private boolean awaitGracePeriod(Server server) {
		long goAway;
		synchronized (this) {
			goAway = this.goAwayNanos;
		}
		long grace = this.clientGrace.toNanos();
		boolean closed = false;
		try {
			while (true) {
				long now = System.nanoTime();
				if (!closed && now - goAway >= grace && this.calls.onlyUnreadEndsOpen(now, grace)
						&& !server.isTerminated()) {
					closed = true;
					closeConnections(server);
				}
				long wait = POLL_NANOS;
				if (!this.gracePeriod.isNegative()) {
					long remaining = goAway + this.gracePeriod.toNanos() - now;
					if (remaining <= 0) {
						return server.isTerminated();
					}
					wait = Math.min(wait, remaining);
				}
				if (server.awaitTermination(wait, TimeUnit.NANOSECONDS)) {
					return true;
				}
				if (this.cancelled.get()) {
					return server.isTerminated();
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return server.isTerminated();
		}
	}

	/** Passes Spring gRPC's events on, keeping the server its start announces. */
	private static final class ServerCapture implements ApplicationEventPublisher {

		private final ApplicationEventPublisher delegate;

		private volatile @Nullable Server server;

		ServerCapture(ApplicationEventPublisher delegate) {
			this.delegate = delegate;
		}

		@Override
		public void publishEvent(Object event) {
			if (event instanceof GrpcServerStartedEvent started) {
				this.server = started.getServer();
			}
			this.delegate.publishEvent(event);
		}

	}

}
