package dev.lifecycle.scenarios;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.spring.ManagedComponent;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.stub.ClientCalls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.env.Environment;

/**
 * A component that, as it stops, makes three calls to the application's in-process gRPC
 * server (a last flush through it), then hands a last piece of work (one second long) to
 * the JDK's common pool. A failed call fails its stop.
 */
@ManagedComponent(value = "flusher", phase = 10)
class Flusher implements PassiveComponent {

	private static final Logger logger = LoggerFactory.getLogger(Flusher.class);

	private final String server;

	Flusher(Environment environment) {
		this.server = environment.getProperty("spring.grpc.server.inprocess.name");
	}

	@Override
	public void stop(ComponentHandle handle) {
		if (this.server != null) {
			callTheInProcessServer();
		}
		CompletableFuture.supplyAsync(() -> {
			sleep(1000);
			return "done";
		}).thenAccept((done) -> logger.info("scenario: flush handed to the common pool {}", done));
		logger.info("scenario: flusher stopped");
	}

	private void callTheInProcessServer() {
		ManagedChannel channel = InProcessChannelBuilder.forName(this.server).directExecutor().build();
		List<String> answers = new ArrayList<>();
		try {
			for (int i = 1; i <= 3; i++) {
				answers.add(ClientCalls.blockingUnaryCall(channel, ScenarioService.ECHO,
						CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), Integer.toString(i)));
			}
			logger.info("scenario: flusher's calls to the in-process server answered {}", answers);
		}
		catch (StatusRuntimeException ex) {
			logger.info("scenario: flusher's call to the in-process server failed: {}", ex.getStatus());
			throw new IllegalStateException("a call to the in-process gRPC server failed: " + ex.getStatus(), ex);
		}
		finally {
			channel.shutdownNow();
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
