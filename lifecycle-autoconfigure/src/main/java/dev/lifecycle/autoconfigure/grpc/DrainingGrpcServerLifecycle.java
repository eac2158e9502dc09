package dev.lifecycle.autoconfigure.grpc;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

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
 * Spring gRPC's server lifecycle with its stop split in two, because a drain needs the GOAWAY
 * early and the wait late: {@link #goAway()} when the drain delay ends (no new calls, calls in
 * flight go on), then the stop in the standard drain waits for them and {@link #cancel(String)}
 * names what is left when the budget runs out. It counts as running until its stop has released
 * the server, so the stop always runs inside the sequence; events, log lines and port stay Spring
 * gRPC's.
 */
final class DrainingGrpcServerLifecycle extends GrpcServerLifecycle implements ProcessLocalServer {

	private static final Log logger = LogFactory.getLog(DrainingGrpcServerLifecycle.class);

	private final String name;

	private final Duration gracePeriod;

	private final GrpcCallTracker calls;

	private final ServerCapture capture;

	private boolean goneAway;

	private final AtomicBoolean cancelled = new AtomicBoolean();

	private long goAwayNanos;

	private volatile boolean released;

	private DrainingGrpcServerLifecycle(String name, GrpcServerFactory factory, Duration gracePeriod,
			GrpcCallTracker calls, ServerCapture capture) {
		super(factory, gracePeriod, capture);
		this.name = name;
		this.gracePeriod = gracePeriod;
		this.calls = calls;
		this.capture = capture;
	}

	/**
	 * @param name the bean's name, which is also its component's name
	 * @param factory the server factory Spring gRPC configured
	 * @param gracePeriod Spring gRPC's {@code spring.grpc.server.shutdown.grace-period}
	 * @param calls the calls the server has open
	 * @param publisher where Spring gRPC's server events go
	 */
	static DrainingGrpcServerLifecycle of(String name, GrpcServerFactory factory, Duration gracePeriod,
			GrpcCallTracker calls, ApplicationEventPublisher publisher) {
		return new DrainingGrpcServerLifecycle(name, factory, gracePeriod, calls, new ServerCapture(publisher));
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
	}

	@Override
	public boolean isRunning() {
		return this.capture.server != null && !this.released;
	}

	/**
	 * Sends GOAWAY on every connection and stops taking new calls; the calls in flight go on. Does
	 * nothing before the server started or after the first time.
	 */
	synchronized void goAway() {
		Server server = this.capture.server;
		if (server == null || this.released || this.goneAway) {
			return;
		}
		this.goneAway = true;
		this.goAwayNanos = System.nanoTime();
		server.shutdown();
		logger.info("Lifecycle: gRPC server '" + this.name + "' sent GOAWAY and takes no new calls ("
				+ this.calls.openCalls() + " call(s) in flight)");
	}

	/**
	 * Cancels the calls still running ({@code shutdownNow()}) and names them. Does nothing once the
	 * server has terminated.
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
		}
	}

	@Override
	protected void stopAndReleaseGrpcServer() {
		Server server = this.capture.server;
		try {
			if (server != null && !this.released) {
				goAway();
				if (!awaitGracePeriod(server)) {
					cancel("its grace period of " + this.gracePeriod.toMillis()
							+ " ms (spring.grpc.server.shutdown.grace-period) ended");
				}
			}
			super.stopAndReleaseGrpcServer();
		}
		finally {
			this.released = true;
		}
	}

	/**
	 * Waits for the calls in flight, up to Spring gRPC's grace period counted from the GOAWAY; a
	 * cancellation (the budget ran out) ends the wait early.
	 * @return whether the server terminated
	 */
	private boolean awaitGracePeriod(Server server) {
		try {
			if (this.gracePeriod.isNegative()) {
				server.awaitTermination();
				return true;
			}
			long remaining;
			synchronized (this) {
				remaining = this.goAwayNanos + this.gracePeriod.toNanos() - System.nanoTime();
			}
			return server.awaitTermination(Math.max(0, remaining), TimeUnit.NANOSECONDS);
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
