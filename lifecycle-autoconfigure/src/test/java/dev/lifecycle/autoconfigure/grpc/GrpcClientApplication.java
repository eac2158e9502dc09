package dev.lifecycle.autoconfigure.grpc;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.spring.LifecycleExit;
import dev.lifecycle.spring.ManagedComponent;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCalls;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.grpc.client.GrpcChannelFactory;

/**
 * An application that calls another over gRPC through a channel of Spring gRPC's client
 * support, and whose component still calls it while it drains (a last flush).
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class GrpcClientApplication {

	final List<String> answersWhileDraining = new CopyOnWriteArrayList<>();

	final List<Integer> exitCodes = new CopyOnWriteArrayList<>();

	@Bean
	LifecycleExit recordingExit() {
		return this.exitCodes::add;
	}

	@Bean
	ManagedChannel upstream(GrpcChannelFactory channels, @Value("${upstream.port}") int port) {
		return channels.createChannel("localhost:" + port);
	}

	@ManagedComponent(value = "forwarder", gracefulShutdown = "10s")
	static class Forwarder implements PassiveComponent {

		private final ManagedChannel upstream;

		private final GrpcClientApplication application;

		Forwarder(ManagedChannel upstream, GrpcClientApplication application) {
			this.upstream = upstream;
			this.application = application;
		}

		@Override
		public void stop(ComponentHandle handle) {
			this.application.answersWhileDraining.add(ClientCalls.blockingUnaryCall(this.upstream,
					GrpcDrainApplication.NAME, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS), "flush"));
		}

	}

}
