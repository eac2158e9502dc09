package dev.lifecycle.autoconfigure.grpc;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.lifecycle.autoconfigure.web.StreamDrain;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Knows every call a gRPC server has open, so that a shutdown can end the long-lived ones
 * and name the ones it had to cancel; installed on every server builder, so it sees
 * services that are not beans too. Ended streams close with {@code UNAVAILABLE}, a status
 * clients retry on, and the application's side reads them as cancelled; unary and
 * client-streaming calls are never ended here, they finish within the server's budget.
 */
final class GrpcCallTracker implements ServerInterceptor, StreamDrain.OpenStreams {

	private static final Log logger = LogFactory.getLog(GrpcCallTracker.class);

	/** What a client of an ended stream reads. */
	static final String ENDED_DESCRIPTION = "The server is shutting down: this stream was ended by its drain; "
			+ "retry to reach another instance";

	/** What a client reads when it opens a call long after the server's GOAWAY. */
	static final String REFUSED_DESCRIPTION = "The server is shutting down and takes no new calls; "
			+ "retry to reach another instance";

	/**
	 * The package of grpc-java's in-process addresses, which this package does not depend
	 * on.
	 */
	private static final String IN_PROCESS_ADDRESSES = "io.grpc.inprocess.";

	private final Set<TrackedCall<?, ?>> open = ConcurrentHashMap.newKeySet();

	private volatile boolean streamsEnded;

	private volatile boolean refusing;

	private volatile long refuseFrom;

	@Override
	public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(ServerCall<ReqT, RespT> call, Metadata headers,
			ServerCallHandler<ReqT, RespT> next) {
		if (this.refusing && System.nanoTime() - this.refuseFrom >= 0 && !fromThisProcess(call)) {
			call.close(Status.UNAVAILABLE.withDescription(REFUSED_DESCRIPTION), new Metadata());
			return new ServerCall.Listener<>() {
			};
		}
		TrackedCall<ReqT, RespT> tracked = new TrackedCall<>(call, System.nanoTime());
		if (tracked.isStream() && this.streamsEnded) {
			tracked.endByDrain();
			return new ServerCall.Listener<>() {
			};
		}
		this.open.add(tracked);
		ServerCall.Listener<ReqT> listener;
		try {
			listener = next.startCall(tracked, headers);
		}
		catch (RuntimeException | Error ex) {
			this.open.remove(tracked);
			throw ex;
		}
		return new TrackedListener<>(listener, tracked);
	}

	/**
	 * Whether the call came through an in-process transport: its client is a part of this
	 * application that was sent no GOAWAY (a component calling the in-process server
	 * while it stops), so it is never refused.
	 */
	private static boolean fromThisProcess(ServerCall<?, ?> call) {
		SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
		return remote != null && remote.getClass().getName().startsWith(IN_PROCESS_ADDRESSES);
	}

	/**
	 * From now on a server-streaming or bidirectional call that starts ends at once; the
	 * open ones end through {@link #open()}.
	 */
	@Override
	public void ending() {
		this.streamsEnded = true;
		long streams = this.open.stream().filter(TrackedCall::isStream).count();
		logger.info("Lifecycle: ending " + streams + " gRPC stream(s) with UNAVAILABLE");
	}

	/** Each open server-streaming and bidirectional call, ended with UNAVAILABLE. */
	@Override
	public List<Runnable> open() {
		List<Runnable> streams = new ArrayList<>();
		for (TrackedCall<?, ?> call : this.open) {
			if (call.isStream() && !call.endedByDrain) {
				streams.add(call::endByDrain);
			}
		}
		return streams;
	}

	/**
	 * Refuses, with {@code UNAVAILABLE}, every call from outside this process that starts
	 * from that instant on: a client that still opens calls then has ignored its GOAWAY.
	 * Calls already open go on.
	 * @param from a {@link System#nanoTime()} instant
	 */
	void refuseNewCallsFrom(long from) {
		this.refuseFrom = from;
		this.refusing = true;
	}

	/**
	 * Whether every open call is a stream this tracker ended at least {@code grace} ago,
	 * whose end its client has not read: nothing the application still works on.
	 * {@code true} with no call open.
	 */
	boolean onlyUnreadEndsOpen(long now, long grace) {
		for (TrackedCall<?, ?> call : this.open) {
			if (!call.endedByDrain || now - call.endedAt < grace) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The calls open right now, each as {@code service/method (type, running for …)},
	 * oldest first.
	 */
	List<String> describeOpenCalls() {
		long now = System.nanoTime();
		List<TrackedCall<?, ?>> calls = new ArrayList<>(this.open);
		calls.sort((a, b) -> Long.compare(a.startNanos, b.startNanos));
		List<String> described = new ArrayList<>(calls.size());
		for (TrackedCall<?, ?> call : calls) {
			described.add(call.describe(now));
		}
		return described;
	}

	/** How many calls are open right now. */
	int openCalls() {
		return this.open.size();
	}

	/**
	 * A call whose sending side the drain can close from its own thread: every outbound
	 * method is serialised with that close, and nothing passes once the call is closed.
	 */
	private static final class TrackedCall<ReqT, RespT>
			extends ForwardingServerCall.SimpleForwardingServerCall<ReqT, RespT> {

		private final long startNanos;

		/**
		 * Only a stream is ever closed from the drain's thread; other calls need no lock.
		 */
		private final boolean stream;

		/** A stream's own; a unary or client-streaming call never takes it. */
		private final Object lock;

		private boolean closed;

		private volatile boolean endedByDrain;

		private volatile long endedAt;

		TrackedCall(ServerCall<ReqT, RespT> delegate, long startNanos) {
			super(delegate);
			this.startNanos = startNanos;
			MethodType type = delegate.getMethodDescriptor().getType();
			this.stream = type == MethodType.SERVER_STREAMING || type == MethodType.BIDI_STREAMING;
			this.lock = this.stream ? new Object() : this;
		}

		/**
		 * Spread from the start instant: the identity hash of a new object, which the set
		 * of open calls would ask for otherwise, costs a call into the VM per call.
		 */
		@Override
		public int hashCode() {
			return Long.hashCode(this.startNanos * 0x9E3779B97F4A7C15L);
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return this == other;
		}

		boolean isStream() {
			return this.stream;
		}

		/**
		 * Closes the call with the drain's status; {@code false} if it was closed
		 * already.
		 */
		boolean endByDrain() {
			synchronized (this.lock) {
				if (this.closed) {
					return false;
				}
				this.closed = true;
				this.endedAt = System.nanoTime();
				this.endedByDrain = true;
				super.close(Status.UNAVAILABLE.withDescription(ENDED_DESCRIPTION), new Metadata());
				return true;
			}
		}

		@Override
		public void sendHeaders(Metadata headers) {
			if (!this.stream) {
				super.sendHeaders(headers);
				return;
			}
			synchronized (this.lock) {
				if (!this.closed) {
					super.sendHeaders(headers);
				}
			}
		}

		@Override
		public void sendMessage(RespT message) {
			if (!this.stream) {
				super.sendMessage(message);
				return;
			}
			synchronized (this.lock) {
				if (!this.closed) {
					super.sendMessage(message);
				}
			}
		}

		@Override
		public void close(Status status, Metadata trailers) {
			if (!this.stream) {
				super.close(status, trailers);
				return;
			}
			synchronized (this.lock) {
				if (!this.closed) {
					this.closed = true;
					super.close(status, trailers);
				}
			}
		}

		String describe(long now) {
			Duration running = Duration.ofNanos(now - this.startNanos);
			return getMethodDescriptor().getFullMethodName() + " ("
					+ getMethodDescriptor().getType().name().toLowerCase().replace('_', '-') + ", running for "
					+ running.toMillis() + " ms)";
		}

	}

	/** Forgets the call when it ends; an end the drain caused reads as a cancellation. */
	private final class TrackedListener<ReqT>
			extends ForwardingServerCallListener.SimpleForwardingServerCallListener<ReqT> {

		private final TrackedCall<ReqT, ?> call;

		TrackedListener(ServerCall.Listener<ReqT> delegate, TrackedCall<ReqT, ?> call) {
			super(delegate);
			this.call = call;
		}

		@Override
		public void onComplete() {
			GrpcCallTracker.this.open.remove(this.call);
			if (this.call.endedByDrain) {
				// The application did not finish this call: tell it the way gRPC tells of
				// any end it did not choose, so a stream producer stops.
				super.onCancel();
			}
			else {
				super.onComplete();
			}
		}

		@Override
		public void onCancel() {
			GrpcCallTracker.this.open.remove(this.call);
			super.onCancel();
		}

	}

}
