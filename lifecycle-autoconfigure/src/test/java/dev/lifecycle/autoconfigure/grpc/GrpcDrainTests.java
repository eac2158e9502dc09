package dev.lifecycle.autoconfigure.grpc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.Cut;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Spring gRPC's Netty server drains with the shutdown, seen by real grpc-java clients
 * over real connections, beside a servlet (Tomcat) and a reactive (Reactor Netty) web
 * server: the health service turns NOT_SERVING at once, calls are served through the
 * drain delay, GOAWAY moves a pinned client to another instance without a failed call, a
 * server stream ends with UNAVAILABLE and its reason, and a stuck call is cancelled at
 * the server's budget, well inside the ceiling.
 */
@ExtendWith(OutputCaptureExtension.class)
class GrpcDrainTests {

	private final List<App> apps = new ArrayList<>();

	private final List<ManagedChannel> channels = new ArrayList<>();

	@AfterEach
	void close() {
		this.channels.forEach(ManagedChannel::shutdownNow);
		this.apps.forEach((app) -> {
			app.application().releaseStuck.countDown();
			app.context().close();
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "servlet", "reactive" })
	void healthTurnsNotServingAtTheTriggerAndCallsAreStillAnsweredThroughTheDrainDelay(String stack) throws Exception {
		App app = start(stack, "orders", "--lifecycle.drain-delay=3s");
		ManagedChannel channel = channel(app.port());
		List<ServingStatus> statuses = new CopyOnWriteArrayList<>();
		List<Long> receivedAt = new CopyOnWriteArrayList<>();
		HealthGrpc.newStub(channel).watch(HealthCheckRequest.newBuilder().setService("").build(), new Observer<>() {
			@Override
			public void onNext(HealthCheckResponse response) {
				receivedAt.add(System.nanoTime());
				statuses.add(response.getStatus());
			}
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> statuses.contains(ServingStatus.SERVING));

		long trigger = System.nanoTime();
		app.manager().triggerShutdown(ShutdownReason.SIGNAL, "test");

		await().atMost(Duration.ofSeconds(5)).until(() -> statuses.contains(ServingStatus.NOT_SERVING));
		long notServing = receivedAt.get(statuses.indexOf(ServingStatus.NOT_SERVING));
		System.out.printf("gRPC drain (%s): NOT_SERVING seen through Watch %.1f ms after the trigger%n", stack,
				(notServing - trigger) / 1e6);
		// At the trigger, not at the drain delay's end: the bound leaves a loaded machine
		// its scheduling delays.
		assertThat(Duration.ofNanos(notServing - trigger))
			.as("NOT_SERVING seen through Watch long before the 3 s drain delay ends")
			.isLessThan(Duration.ofMillis(1500));
		assertThat(call(channel, GrpcDrainApplication.NAME, "")).as("a call during the drain delay")
			.isEqualTo("orders");
		assertThat(app.manager().report()).as("still in the drain delay").isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "servlet", "reactive" })
	void goAwayAtTheEndOfTheDrainMovesAPinnedClientToAnotherInstanceWithoutAFailedCall(String stack,
			CapturedOutput output) throws Exception {
		App leaving = start(stack, "leaving", "--lifecycle.drain-delay=1s");
		// Its own shutdown, when the test ends, is not under test: no drain delay.
		App staying = start(stack, "staying", "--lifecycle.drain-delay=0s");
		ManagedChannel channel = GrpcClients.pinned(leaving.port(), staying.port());
		this.channels.add(channel);
		assertThat(call(channel, GrpcDrainApplication.NAME, "")).isEqualTo("leaving");
		// In flight as the drain delay ends: the GOAWAY lets it finish.
		CompletableFuture<String> inFlight = CompletableFuture
			.supplyAsync(() -> call(channel, GrpcDrainApplication.SLOW, "1500"));

		long trigger = System.nanoTime();
		leaving.manager().triggerShutdown(ShutdownReason.SIGNAL, "test");
		List<String> answers = new ArrayList<>();
		List<Long> answeredAt = new ArrayList<>();
		while (System.nanoTime() - trigger < TimeUnit.SECONDS.toNanos(3)) {
			answers.add(call(channel, GrpcDrainApplication.NAME, ""));
			answeredAt.add(System.nanoTime() - trigger);
			Thread.sleep(20);
		}

		assertThat(answers).as("every call answered, first by the leaving instance, then by the other")
			.startsWith("leaving")
			.endsWith("staying");
		int moved = answers.indexOf("staying");
		assertThat(answers.subList(moved, answers.size())).containsOnly("staying");
		assertThat(Duration.ofNanos(answeredAt.get(moved))).as("moved when the drain delay ended")
			.isGreaterThanOrEqualTo(Duration.ofSeconds(1));
		assertThat(inFlight.get(10, TimeUnit.SECONDS)).as("the call in flight at the GOAWAY").isEqualTo("leaving");
		assertThat(output).contains("gRPC server 'nettyGrpcServerLifecycle' sent GOAWAY");
		ShutdownReport report = leaving.awaitReport();
		assertThat(report.component("nettyGrpcServerLifecycle").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@ParameterizedTest
	@ValueSource(strings = { "servlet", "reactive" })
	void aServerStreamEndsWithUnavailableAndItsReasonWhenTheDrainDelayEnds(String stack) throws Exception {
		App app = start(stack, "orders", "--lifecycle.drain-delay=1s");
		GrpcDrainApplication application = app.application();
		ManagedChannel channel = channel(app.port());
		List<String> ticks = new CopyOnWriteArrayList<>();
		CompletableFuture<Throwable> ended = new CompletableFuture<>();
		ClientCalls.asyncServerStreamingCall(channel.newCall(GrpcDrainApplication.TICKS, io.grpc.CallOptions.DEFAULT),
				"", new Observer<>() {
					@Override
					public void onNext(String value) {
						ticks.add(value);
					}

					@Override
					public void onError(Throwable error) {
						ended.complete(error);
					}

					@Override
					public void onCompleted() {
						ended.complete(null);
					}
				});
		await().atMost(Duration.ofSeconds(10)).until(() -> ticks.size() >= 3);

		long trigger = System.nanoTime();
		app.manager().triggerShutdown(ShutdownReason.SIGNAL, "test");

		Throwable error = ended.get(10, TimeUnit.SECONDS);
		Duration endedAfter = Duration.ofNanos(System.nanoTime() - trigger);
		System.out.printf("gRPC drain (%s): server stream ended %d ms after the trigger (drain delay 1 s)%n", stack,
				endedAfter.toMillis());
		assertThat(error).isInstanceOf(StatusRuntimeException.class);
		Status status = ((StatusRuntimeException) error).getStatus();
		assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
		assertThat(status.getDescription()).isEqualTo(GrpcCallTracker.ENDED_DESCRIPTION);
		assertThat(endedAfter).as("ended when the drain delay ended").isGreaterThanOrEqualTo(Duration.ofMillis(900));
		await().atMost(Duration.ofSeconds(5)).until(() -> application.ticksCancelled.get() == 1);
		int sent = application.ticksSent.get();
		ShutdownReport report = app.awaitReport();
		assertThat(application.ticksSent.get()).as("the stream's producer stopped").isEqualTo(sent);
		assertThat(report.component("nettyGrpcServerLifecycle").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

	@Test
	void withStreamsEndingAtTheShutdownAStreamEndsAtTheTriggerAndOneOpenedDuringTheDrainDelayEndsAsItStarts()
			throws Exception {
		App app = start("servlet", "orders", "--lifecycle.drain-delay=3s", "--lifecycle.streams.end-at=shutdown");
		ManagedChannel channel = channel(app.port());
		CompletableFuture<Throwable> first = ticks(channel);
		await().atMost(Duration.ofSeconds(10)).until(() -> app.application().ticksSent.get() >= 3);

		app.manager().triggerShutdown(ShutdownReason.SIGNAL, "test");

		assertThat(first.get(2, TimeUnit.SECONDS)).as("the stream open at the trigger")
			.isInstanceOfSatisfying(StatusRuntimeException.class,
					(ex) -> assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
		assertThat(ticks(channel).get(2, TimeUnit.SECONDS)).as("a stream opened during the drain delay")
			.isInstanceOfSatisfying(StatusRuntimeException.class, (ex) -> {
				assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
				assertThat(ex.getStatus().getDescription()).isEqualTo(GrpcCallTracker.ENDED_DESCRIPTION);
			});
		assertThat(call(channel, GrpcDrainApplication.NAME, "")).as("a unary call during the drain delay")
			.isEqualTo("orders");
		assertThat(app.manager().report()).as("still in the drain delay").isEmpty();
	}

	private static CompletableFuture<Throwable> ticks(ManagedChannel channel) {
		CompletableFuture<Throwable> ended = new CompletableFuture<>();
		ClientCalls.asyncServerStreamingCall(channel.newCall(GrpcDrainApplication.TICKS, io.grpc.CallOptions.DEFAULT),
				"", new Observer<>() {
					@Override
					public void onError(Throwable error) {
						ended.complete(error);
					}

					@Override
					public void onCompleted() {
						ended.complete(null);
					}
				});
		return ended;
	}

	@Test
	void anInProcessServerEndsItsStreamsAndTakesNoNewCallsWhenTheDrainDelayEnds() throws Exception {
		String name = "drain-" + System.nanoTime();
		App app = start("servlet", "orders", "--lifecycle.drain-delay=1s",
				"--spring.grpc.server.inprocess.name=" + name);
		ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
		this.channels.add(channel);
		CompletableFuture<Throwable> ended = new CompletableFuture<>();
		ClientCalls.asyncServerStreamingCall(channel.newCall(GrpcDrainApplication.TICKS, io.grpc.CallOptions.DEFAULT),
				"", new Observer<>() {
					@Override
					public void onError(Throwable error) {
						ended.complete(error);
					}

					@Override
					public void onCompleted() {
						ended.complete(null);
					}
				});
		await().atMost(Duration.ofSeconds(10)).until(() -> app.application().ticksSent.get() >= 3);

		app.manager().triggerShutdown(ShutdownReason.SIGNAL, "test");
		assertThat(call(channel, GrpcDrainApplication.NAME, "")).as("a call during the drain delay")
			.isEqualTo("orders");

		Throwable error = ended.get(10, TimeUnit.SECONDS);
		assertThat(error).isInstanceOfSatisfying(StatusRuntimeException.class, (ex) -> {
			assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
			assertThat(ex.getStatus().getDescription()).isEqualTo(GrpcCallTracker.ENDED_DESCRIPTION);
		});
		ShutdownReport report = app.awaitReport();
		assertThat(report.component("inProcessGrpcServerLifecycle").orElseThrow().outcome())
			.isEqualTo(Outcome.COMPLETED);
		assertThatExceptionOfType(StatusRuntimeException.class)
			.isThrownBy(() -> call(channel, GrpcDrainApplication.NAME, ""))
			.satisfies((ex) -> assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
	}

	@Test
	void aStuckCallIsCancelledAndNamedAtTheServersBudgetWellInsideTheCeiling(CapturedOutput output) throws Exception {
		App app = start("servlet", "orders", "--lifecycle.drain-delay=500ms",
				"--lifecycle.components.nettyGrpcServerLifecycle.graceful-shutdown=2s",
				"--lifecycle.global-shutdown-timeout=20s");
		GrpcDrainApplication application = app.application();
		ManagedChannel channel = channel(app.port());
		CompletableFuture<String> stuck = CompletableFuture
			.supplyAsync(() -> call(channel, GrpcDrainApplication.STUCK, ""));
		assertThat(application.stuckStarted.await(10, TimeUnit.SECONDS)).isTrue();

		long trigger = System.nanoTime();
		app.manager().triggerShutdown(ShutdownReason.SIGNAL, "test");

		ShutdownReport report = app.awaitReport();
		Duration elapsed = Duration.ofNanos(System.nanoTime() - trigger);
		System.out.printf("gRPC drain: stuck call cancelled, sequence ended %d ms after the trigger "
				+ "(drain delay 0.5 s, budget 2 s, ceiling 20 s)%n", elapsed.toMillis());
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> stuck.get(5, TimeUnit.SECONDS))
			.havingRootCause()
			.isInstanceOfSatisfying(StatusRuntimeException.class,
					(ex) -> assertThat(ex.getStatus().getCode()).isNotEqualTo(Status.Code.OK));
		assertThat(report.component("nettyGrpcServerLifecycle").orElseThrow().outcome()).isEqualTo(Outcome.TIMEOUT);
		assertThat(report.component("nettyGrpcServerLifecycle").orElseThrow().cut()).as("named in the report")
			.singleElement()
			.extracting(Cut::work)
			.asString()
			.startsWith("test.Drain/Stuck (unary, running for ");
		assertThat(report.clean()).isFalse();
		assertThat(report.ceilingFired()).isFalse();
		assertThat(elapsed).as("drain delay + budget, far from the 20 s ceiling").isLessThan(Duration.ofSeconds(8));
		assertThat(output).contains("gRPC server 'nettyGrpcServerLifecycle' cancelled 1 call(s) still running when "
				+ "its budget of the shutdown ran out: test.Drain/Stuck (unary, running for ");
		await().atMost(Duration.ofSeconds(10)).until(() -> !application.exitCodes.isEmpty());
		assertThat(application.exitCodes).containsExactly(report.exitCode());
	}

	@Test
	void theApplicationsOwnClientChannelClosesAfterTheComponentsThatUseItHaveDrained() throws Exception {
		// Its own shutdown, when the test ends, is not under test: no drain delay.
		App upstream = start("servlet", "upstream", "--lifecycle.drain-delay=0s");
		try (ConfigurableApplicationContext client = new SpringApplicationBuilder(GrpcClientApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.application.name=client", "upstream.port=" + upstream.port(),
					"lifecycle.signals.trap=false", "lifecycle.pre-stop.enabled=false",
					"lifecycle.run-marker.enabled=false", "lifecycle.halt-after-ceiling=false",
					"lifecycle.drain-delay=0s")
			.run()) {
			GrpcClientApplication application = client.getBean(GrpcClientApplication.class);
			ManagedChannel channel = client.getBean(ManagedChannel.class);
			LifecycleManager manager = client.getBean(LifecycleManager.class);

			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");

			ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(30)).orElseThrow();
			assertThat(report.component("forwarder").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
			assertThat(application.answersWhileDraining).as("the call the component made while it drained")
				.containsExactly("upstream");
			await().atMost(Duration.ofSeconds(10)).until(channel::isShutdown);
			assertThat(client.isActive()).isFalse();
		}
	}

	private App start(String stack, String name, String... arguments) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(GrpcDrainApplication.class)
			.web(stack.equals("reactive") ? WebApplicationType.REACTIVE : WebApplicationType.SERVLET)
			.properties("server.port=0", "spring.grpc.server.port=0", "spring.application.name=" + name,
					"lifecycle.signals.trap=false", "lifecycle.pre-stop.enabled=false",
					"lifecycle.run-marker.enabled=false", "lifecycle.halt-after-ceiling=false",
					"lifecycle.drain-delay=2s", "lifecycle.global-shutdown-timeout=20s")
			.run(arguments);
		App app = new App(context, context.getBean(LifecycleManager.class), context.getBean(GrpcDrainApplication.class),
				context.getBean("nettyGrpcServerLifecycle", GrpcServerLifecycle.class).getPort());
		this.apps.add(app);
		return app;
	}

	/** A started application, with what a test asks of it also after it closed itself. */
	private record App(ConfigurableApplicationContext context, LifecycleManager manager,
			GrpcDrainApplication application, int port) {

		ShutdownReport awaitReport() throws InterruptedException {
			return this.manager.awaitTermination(Duration.ofSeconds(30)).orElseThrow();
		}

	}

	private ManagedChannel channel(int port) {
		ManagedChannel channel = GrpcClients.to(port);
		this.channels.add(channel);
		return channel;
	}

	private static String call(ManagedChannel channel, io.grpc.MethodDescriptor<String, String> method,
			String request) {
		return ClientCalls.blockingUnaryCall(channel, method,
				io.grpc.CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), request);
	}

	/** Ignores what a test does not look at. */
	private abstract static class Observer<T> implements StreamObserver<T> {

		@Override
		public void onNext(T value) {
		}

		@Override
		public void onError(Throwable error) {
		}

		@Override
		public void onCompleted() {
		}

	}

}
