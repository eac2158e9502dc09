package dev.lifecycle.scenarios;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.grpc.BindableService;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * A gRPC service without generated code, served by every gRPC server of the application:
 * a unary echo (which starts an {@code @Async} task when its request is
 * {@code async <id>}), a call that never answers on its own, a stream that ticks every 50
 * ms, and a stream that sends as fast as its client's flow control lets it.
 */
@Component
class ScenarioService implements BindableService {

	private static final Logger logger = LoggerFactory.getLogger(ScenarioService.class);

	static final String SERVICE = "scenario.Scenario";

	static final MethodDescriptor<String, String> ECHO = method("Echo", MethodDescriptor.MethodType.UNARY);

	static final MethodDescriptor<String, String> STUCK = method("Stuck", MethodDescriptor.MethodType.UNARY);

	static final MethodDescriptor<String, String> TICKS = method("Ticks", MethodDescriptor.MethodType.SERVER_STREAMING);

	static final MethodDescriptor<String, String> FLOOD = method("Flood", MethodDescriptor.MethodType.SERVER_STREAMING);

	/** The streams' own timer: not a bean, so nothing adopts it. */
	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "scenario-streams");
		thread.setDaemon(true);
		return thread;
	});

	private final BackgroundWork work;

	ScenarioService(BackgroundWork work) {
		this.work = work;
	}

	@Override
	public ServerServiceDefinition bindService() {
		return ServerServiceDefinition.builder(SERVICE)
			.addMethod(ECHO, ServerCalls.asyncUnaryCall((request, response) -> {
				if (request.startsWith("async ")) {
					this.work.run(request.substring("async ".length()));
				}
				response.onNext("echo " + request);
				response.onCompleted();
			}))
			.addMethod(STUCK,
					ServerCalls.asyncUnaryCall((request, response) -> logger.info("scenario: stuck call started")))
			.addMethod(TICKS, ServerCalls.asyncServerStreamingCall(this::ticks))
			.addMethod(FLOOD, ServerCalls.asyncServerStreamingCall(this::flood))
			.build();
	}

	private void ticks(String request, StreamObserver<String> response) {
		repeat((ServerCallStreamObserver<String>) response, 50, (stream) -> stream.onNext("tick"));
	}

	private void flood(String request, StreamObserver<String> response) {
		String message = "x".repeat(16 * 1024);
		logger.info("scenario: flood stream started");
		boolean[] stalled = new boolean[1];
		repeat((ServerCallStreamObserver<String>) response, 5, (stream) -> {
			if (stream.isReady()) {
				stream.onNext(message);
			}
			else if (!stalled[0]) {
				stalled[0] = true;
				logger.info("scenario: flood stream stalled (its client reads nothing)");
			}
		});
	}

	private void repeat(ServerCallStreamObserver<String> stream, long millis, Send send) {
		ScheduledFuture<?>[] task = new ScheduledFuture<?>[1];
		stream.setOnCancelHandler(() -> task[0].cancel(false));
		task[0] = this.timer.scheduleAtFixedRate(() -> {
			try {
				if (!stream.isCancelled()) {
					send.to(stream);
				}
			}
			catch (RuntimeException ex) {
				// The call ended between the check and the send.
				task[0].cancel(false);
			}
		}, 0, millis, TimeUnit.MILLISECONDS);
	}

	private interface Send {

		void to(ServerCallStreamObserver<String> stream);

	}

	private static MethodDescriptor<String, String> method(String name, MethodDescriptor.MethodType type) {
		return MethodDescriptor.<String, String>newBuilder()
			.setType(type)
			.setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
			.setRequestMarshaller(Utf8.INSTANCE)
			.setResponseMarshaller(Utf8.INSTANCE)
			.build();
	}

	/** Strings as UTF-8 bytes. */
	enum Utf8 implements MethodDescriptor.Marshaller<String> {

		INSTANCE;

		@Override
		public InputStream stream(String value) {
			return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
		}

		@Override
		public String parse(InputStream stream) {
			try {
				return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

}
