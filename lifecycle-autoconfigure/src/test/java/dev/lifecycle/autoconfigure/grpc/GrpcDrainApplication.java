package dev.lifecycle.autoconfigure.grpc;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.spring.LifecycleExit;
import dev.lifecycle.testfixtures.Utf8Marshaller;
import io.grpc.BindableService;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A gRPC service without generated code: a unary call answering with the instance's name,
 * a slow one, one that never answers on its own, and a server stream that ticks until it
 * is ended.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class GrpcDrainApplication {

	static final MethodDescriptor<String, String> NAME = method("Name", MethodDescriptor.MethodType.UNARY);

	static final MethodDescriptor<String, String> SLOW = method("Slow", MethodDescriptor.MethodType.UNARY);

	static final MethodDescriptor<String, String> STUCK = method("Stuck", MethodDescriptor.MethodType.UNARY);

	static final MethodDescriptor<String, String> TICKS = method("Ticks", MethodDescriptor.MethodType.SERVER_STREAMING);

	static final MethodDescriptor<String, String> FLOOD = method("Flood", MethodDescriptor.MethodType.SERVER_STREAMING);

	/** Set once a flood stream could not send because its client reads nothing. */
	final CountDownLatch floodStalled = new CountDownLatch(1);

	final List<Integer> exitCodes = new CopyOnWriteArrayList<>();

	final CountDownLatch releaseStuck = new CountDownLatch(1);

	final CountDownLatch stuckStarted = new CountDownLatch(1);

	final AtomicInteger ticksSent = new AtomicInteger();

	final AtomicInteger ticksCancelled = new AtomicInteger();

	private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();

	@Bean
	LifecycleExit recordingExit() {
		return this.exitCodes::add;
	}

	@Bean
	BindableService drainService(@Value("${spring.application.name}") String name) {
		ServerServiceDefinition definition = ServerServiceDefinition.builder("test.Drain")
			.addMethod(NAME, ServerCalls.asyncUnaryCall((request, response) -> reply(response, name)))
			.addMethod(SLOW, ServerCalls.asyncUnaryCall((request, response) -> {
				sleep(Long.parseLong(request));
				reply(response, name);
			}))
			.addMethod(STUCK, ServerCalls.asyncUnaryCall((request, response) -> {
				this.stuckStarted.countDown();
				try {
					this.releaseStuck.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}))
			.addMethod(TICKS, ServerCalls.asyncServerStreamingCall(this::tick))
			.addMethod(FLOOD, ServerCalls.asyncServerStreamingCall(this::flood))
			.build();
		return () -> definition;
	}

	private void tick(String request, StreamObserver<String> response) {
		ServerCallStreamObserver<String> stream = (ServerCallStreamObserver<String>) response;
		ScheduledFuture<?>[] task = new ScheduledFuture<?>[1];
		stream.setOnCancelHandler(() -> {
			this.ticksCancelled.incrementAndGet();
			task[0].cancel(false);
		});
		task[0] = this.ticker.scheduleAtFixedRate(() -> {
			if (!stream.isCancelled()) {
				stream.onNext("tick");
				this.ticksSent.incrementAndGet();
			}
		}, 0, 50, TimeUnit.MILLISECONDS);
	}

	/**
	 * Sends 16 KiB messages as fast as the client's flow control lets it, until the call
	 * ends.
	 */
	private void flood(String request, StreamObserver<String> response) {
		ServerCallStreamObserver<String> stream = (ServerCallStreamObserver<String>) response;
		String message = "x".repeat(16 * 1024);
		ScheduledFuture<?>[] task = new ScheduledFuture<?>[1];
		stream.setOnCancelHandler(() -> task[0].cancel(false));
		task[0] = this.ticker.scheduleAtFixedRate(() -> {
			if (stream.isCancelled()) {
				return;
			}
			if (stream.isReady()) {
				stream.onNext(message);
			}
			else {
				this.floodStalled.countDown();
			}
		}, 0, 5, TimeUnit.MILLISECONDS);
	}

	private static void reply(StreamObserver<String> response, String value) {
		response.onNext(value);
		response.onCompleted();
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static MethodDescriptor<String, String> method(String name, MethodDescriptor.MethodType type) {
		return MethodDescriptor.<String, String>newBuilder()
			.setType(type)
			.setFullMethodName(MethodDescriptor.generateFullMethodName("test.Drain", name))
			.setRequestMarshaller(Utf8Marshaller.INSTANCE)
			.setResponseMarshaller(Utf8Marshaller.INSTANCE)
			.build();
	}

}
