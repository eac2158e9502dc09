package dev.lifecycle.benchmarks.request;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.autoconfigure.grpc.GrpcRequestPath;
import dev.lifecycle.sample.grpc.v1.Ack;
import dev.lifecycle.sample.grpc.v1.Event;
import dev.lifecycle.sample.grpc.v1.IngestGrpc;
import io.grpc.Attributes;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What Lifecycle's gRPC interceptor ({@code GrpcCallTracker}, installed on every server
 * builder) adds to a unary call while the application serves: the echo of
 * {@code request-cost-app} ({@code Ingest/Append}, answered at once), called through
 * grpc-java's in-process transport with a blocking stub, on a server without the tracker
 * ({@link #without}) and with it ({@link #with}) (for scale,
 * {@link #withEmptyInterceptor}: an interceptor that only starts the call), both with
 * direct executors so that the whole call runs on the benchmark's thread. Each operation
 * is one call, client side included (the in-process transport does not serialise the
 * messages and has no network; a real call costs more).
 *
 * <p>
 * {@link #handlerWithout} and {@link #handlerWith} give the tracker's own cost with
 * nothing around it (their ratio means little: the echo alone costs a few nanoseconds):
 * the server's call handler alone (the interceptors and the service), driven as the
 * transport drives a unary call (start, one message, half-close, complete) on a call that
 * only records what it is sent: no transport, no client, no stub.
 *
 * <p>
 * The goal (issue 40, item 5): {@code with} ≤ 1.03 × {@code without}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 8, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
@State(Scope.Benchmark)
public class GrpcRequestBenchmark {

	private static final Metadata NO_HEADERS = new Metadata();

	private ServerInterceptor tracker;

	private Server plainServer;

	private Server lifecycleServer;

	private ManagedChannel plainChannel;

	private ManagedChannel lifecycleChannel;

	private IngestGrpc.IngestBlockingStub plain;

	private IngestGrpc.IngestBlockingStub lifecycle;

	private ServerCallHandler<Event, Ack> plainHandler;

	private ServerCallHandler<Event, Ack> lifecycleHandler;

	private ServerCallHandler<Event, Ack> emptyHandler;

	private Server emptyServer;

	private ManagedChannel emptyChannel;

	private IngestGrpc.IngestBlockingStub empty;

	private Event event;

	private long id;

	@Setup(Level.Trial)
	public void setUp() throws IOException {
		this.tracker = GrpcRequestPath.callTracker();
		String name = "bench-grpc-" + ProcessHandle.current().pid();
		this.plainServer = InProcessServerBuilder.forName(name + "-plain")
			.directExecutor()
			.addService(new Echo(null))
			.build()
			.start();
		// As the auto-configuration does: builder.intercept(tracker), server-wide.
		this.lifecycleServer = InProcessServerBuilder.forName(name + "-lifecycle")
			.directExecutor()
			.addService(new Echo(this.tracker))
			.intercept(this.tracker)
			.build()
			.start();
		ServerInterceptor emptyInterceptor = new ServerInterceptor() {
			@Override
			public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(ServerCall<ReqT, RespT> call, Metadata headers,
					ServerCallHandler<ReqT, RespT> next) {
				return next.startCall(call, headers);
			}
		};
		this.emptyServer = InProcessServerBuilder.forName(name + "-empty")
			.directExecutor()
			.addService(new Echo(null))
			.intercept(emptyInterceptor)
			.build()
			.start();
		this.emptyChannel = InProcessChannelBuilder.forName(name + "-empty").directExecutor().build();
		this.empty = IngestGrpc.newBlockingStub(this.emptyChannel);
		this.emptyHandler = handler(ServerInterceptors.intercept(new Echo(null), emptyInterceptor));
		this.plainChannel = InProcessChannelBuilder.forName(name + "-plain").directExecutor().build();
		this.lifecycleChannel = InProcessChannelBuilder.forName(name + "-lifecycle").directExecutor().build();
		this.plain = IngestGrpc.newBlockingStub(this.plainChannel);
		this.lifecycle = IngestGrpc.newBlockingStub(this.lifecycleChannel);
		this.plainHandler = handler(ServerInterceptors.intercept(new Echo(null)));
		this.lifecycleHandler = handler(ServerInterceptors.intercept(new Echo(this.tracker), this.tracker));
		this.event = Event.newBuilder().setId("0123456789abcdef").setKey("bench.key").setValue(42).build();
		// The probe: a call on the server with the tracker is open in it while it runs.
		Echo.probing = true;
		expect(with(), 1);
		expect(without(), 0);
		expect(handlerWith(), 1);
		expect(handlerWithout(), 0);
		Echo.probing = false;
		expect(with(), 42);
		expect(handlerWith(), 42);
		expect(withEmptyInterceptor(), 42);
		expect(handlerWithEmptyInterceptor(), 42);
	}

	@SuppressWarnings("unchecked")
	private static ServerCallHandler<Event, Ack> handler(io.grpc.ServerServiceDefinition service) {
		return (ServerCallHandler<Event, Ack>) service.getMethod(IngestGrpc.getAppendMethod().getFullMethodName())
			.getServerCallHandler();
	}

	@TearDown(Level.Trial)
	public void tearDown() throws InterruptedException {
		expect(with(), 42);
		expect(without(), 42);
		if (GrpcRequestPath.openCalls(this.tracker) != 0) {
			throw new IllegalStateException("the tracker still has calls open");
		}
		this.emptyChannel.shutdownNow();
		this.emptyServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
		this.plainChannel.shutdownNow();
		this.lifecycleChannel.shutdownNow();
		this.plainServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
		this.lifecycleServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
	}

	@Benchmark
	public Ack without() {
		return this.plain.append(this.event);
	}

	@Benchmark
	public Ack with() {
		return this.lifecycle.append(this.event);
	}

	@Benchmark
	public Ack handlerWithout() {
		return unary(this.plainHandler);
	}

	@Benchmark
	public Ack handlerWith() {
		return unary(this.lifecycleHandler);
	}

	/** For scale: what any interceptor costs, one that only starts the call. */
	@Benchmark
	public Ack withEmptyInterceptor() {
		return this.empty.append(this.event);
	}

	/** For scale, on the handler alone. */
	@Benchmark
	public Ack handlerWithEmptyInterceptor() {
		return unary(this.emptyHandler);
	}

	/** As the server's transport runs a unary call once its request has arrived. */
	private Ack unary(ServerCallHandler<Event, Ack> handler) {
		RecordingCall call = new RecordingCall();
		ServerCall.Listener<Event> listener = handler.startCall(call, NO_HEADERS);
		listener.onReady();
		listener.onMessage(this.event);
		listener.onHalfClose();
		listener.onComplete();
		if (!call.status.isOk()) {
			throw new IllegalStateException("call closed with " + call.status);
		}
		return call.message;
	}

	private static void expect(Ack ack, long offset) {
		if (!"0123456789abcdef".equals(ack.getId()) || ack.getOffset() != offset) {
			throw new IllegalStateException("unexpected answer " + ack);
		}
	}

	/**
	 * The echo of request-cost-app: answers with the event's id and value; while probing,
	 * with the number of calls the tracker it is given has open instead (1 when the call
	 * runs through it). Both variants read the flag.
	 */
	static final class Echo extends IngestGrpc.IngestImplBase {

		static volatile boolean probing;

		private final ServerInterceptor tracker;

		Echo(ServerInterceptor tracker) {
			this.tracker = tracker;
		}

		@Override
		public void append(Event request, StreamObserver<Ack> responseObserver) {
			long offset = request.getValue();
			if (probing) {
				offset = (this.tracker != null) ? GrpcRequestPath.openCalls(this.tracker) : 0;
			}
			responseObserver.onNext(Ack.newBuilder().setId(request.getId()).setOffset(offset).build());
			responseObserver.onCompleted();
		}

	}

	/** A server call that keeps what the service sends. */
	static final class RecordingCall extends ServerCall<Event, Ack> {

		Ack message;

		Status status;

		@Override
		public void request(int numMessages) {
		}

		@Override
		public void sendHeaders(Metadata headers) {
		}

		@Override
		public void sendMessage(Ack message) {
			this.message = message;
		}

		@Override
		public void close(Status status, Metadata trailers) {
			this.status = status;
		}

		@Override
		public boolean isCancelled() {
			return false;
		}

		@Override
		public MethodDescriptor<Event, Ack> getMethodDescriptor() {
			return IngestGrpc.getAppendMethod();
		}

		@Override
		public Attributes getAttributes() {
			return Attributes.EMPTY;
		}

	}

}
