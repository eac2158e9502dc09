package dev.lifecycle.autoconfigure.grpc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.Cut;
import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * No gRPC client holds a Netty server's stop, seen from real clients over real
 * connections: a client that stops reading its stream, and one that ignores the GOAWAY
 * and the PING after it. And the calls a server's grace period cuts make the report not
 * clean, named in it.
 */
@ExtendWith(OutputCaptureExtension.class)
class GrpcUnresponsiveClientTests {

	private static final String SERVER = "nettyGrpcServerLifecycle";

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private final List<GrpcDrainApplication> applications = new ArrayList<>();

	private final List<ManagedChannel> channels = new ArrayList<>();

	@AfterEach
	void close() {
		this.channels.forEach(ManagedChannel::shutdownNow);
		this.applications.forEach((application) -> application.releaseStuck.countDown());
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void aStreamWhoseClientStopsReadingIsResetAfterTheClientGraceAndHoldsNoShutdown(CapturedOutput output)
			throws Exception {
		ConfigurableApplicationContext context = start("--lifecycle.drain-delay=500ms",
				"--lifecycle.grpc.client-grace=1s", "--lifecycle.components." + SERVER + ".graceful-shutdown=20s");
		GrpcDrainApplication application = context.getBean(GrpcDrainApplication.class);
		ManagedChannel channel = NettyChannelBuilder.forAddress("localhost", port(context))
			.usePlaintext()
			.disableRetry()
			.flowControlWindow(64 * 1024)
			.build();
		this.channels.add(channel);
		ClientCall<String, String> stalled = channel.newCall(GrpcDrainApplication.FLOOD, CallOptions.DEFAULT);
		CompletableFuture<Status> closed = new CompletableFuture<>();
		stalled.start(new ClientCall.Listener<>() {
			@Override
			public void onClose(Status status, Metadata trailers) {
				closed.complete(status);
			}
		}, new Metadata());
		stalled.sendMessage("");
		stalled.halfClose();
		// Never requests a message: the connection's window fills and the server can send
		// nothing more.
		assertThat(application.floodStalled.await(10, TimeUnit.SECONDS)).as("the server's sending stalled").isTrue();

		long trigger = System.nanoTime();
		context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
		ShutdownReport report = awaitReport(context);
		Duration elapsed = Duration.ofNanos(System.nanoTime() - trigger);

		System.out.printf("gRPC stalled stream: sequence ended %d ms after the trigger "
				+ "(drain delay 0.5 s, client grace 1 s, budget 20 s)%n", elapsed.toMillis());
		ComponentReport server = report.component(SERVER).orElseThrow();
		assertThat(server.outcome()).as("the stalled client did not hold the server to its budget")
			.isEqualTo(Outcome.COMPLETED);
		assertThat(elapsed).as("drain delay + client grace, far from the 20 s budget")
			.isLessThan(Duration.ofSeconds(8));
		assertThat(server.cut()).as("the stream was ended by the drain, not cut").isEmpty();
		assertThat(report.clean()).isTrue();
		assertThat(output).contains("reset 1 ended stream(s) whose clients did not read their end: test.Drain/Flood");
		stalled.request(Integer.MAX_VALUE);
		assertThat(closed.get(10, TimeUnit.SECONDS).getCode()).as("what the client reads once it reads again")
			.isNotEqualTo(Status.Code.OK);
	}

	@Test
	void aClientThatIgnoresTheGoAwayAndItsPingGetsNoNewCallsServedAfterTheClientGraceAndItsConnectionIsClosed()
			throws Exception {
		ConfigurableApplicationContext context = start("--lifecycle.drain-delay=500ms",
				"--lifecycle.grpc.client-grace=1s");
		String name = "/" + GrpcDrainApplication.NAME.getFullMethodName();
		try (DeafGrpcClient client = new DeafGrpcClient(port(context))) {
			assertThat(client.call(name, Duration.ofSeconds(30))).as("served before the shutdown").isEqualTo("0");

			long trigger = System.nanoTime();
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			List<String> answers = new ArrayList<>();
			// The server's own wait for a PING's answer is 10 s: look for less than that.
			while (!client.closedAt.isDone() && System.nanoTime() - trigger < TimeUnit.SECONDS.toNanos(8)) {
				answers.add(client.call(name, Duration.ofSeconds(2)));
				Thread.sleep(50);
			}
			ShutdownReport report = awaitReport(context);

			long goAway = client.goAwayAt.getNow(trigger);
			System.out.printf(
					"gRPC client deaf to GOAWAY: %d call(s) after the trigger, answers %s; connection "
							+ "closed %d ms after the GOAWAY (client grace 1 s)%n",
					answers.size(), answers,
					client.closedAt.isDone() ? (client.closedAt.get() - goAway) / 1_000_000 : -1);
			assertThat(client.goAwayAt).as("the server sent a GOAWAY").isDone();
			assertThat(client.pingAt).as("and a PING after it").isDone();
			assertThat(client.closedAt).as("the server closed the connection").isDone();
			assertThat(Duration.ofNanos(client.closedAt.get() - goAway))
				.as("closed after the client grace, " + "not after the server's own 10 s wait for the PING's answer")
				.isLessThan(Duration.ofSeconds(6));
			// After the client grace a call is refused, or finds the connection closed
			// (the loop above ends there): either way none is served once the first one
			// was not.
			int refused = firstNotServed(answers);
			if (refused >= 0) {
				assertThat(answers.subList(refused, answers.size())).as("no call served after the first refused one")
					.allSatisfy((answer) -> assertThat(answer).isIn("14", "closed", "reset"));
			}
			ComponentReport server = report.component(SERVER).orElseThrow();
			assertThat(server.outcome()).isEqualTo(Outcome.COMPLETED);
			assertThat(server.cut()).isEmpty();
			assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
		}
	}

	@Test
	void callsCutByTheServersGracePeriodMakeTheReportNotCleanAndAreNamedInIt(CapturedOutput output) throws Exception {
		ConfigurableApplicationContext context = start("--lifecycle.drain-delay=200ms",
				"--spring.grpc.server.shutdown.grace-period=1s",
				"--lifecycle.components." + SERVER + ".graceful-shutdown=20s");
		ManagedChannel channel = GrpcClients.to(port(context));
		this.channels.add(channel);
		List<CompletableFuture<String>> slow = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			slow.add(CompletableFuture.supplyAsync(() -> ClientCalls.blockingUnaryCall(channel,
					GrpcDrainApplication.STUCK, CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), "")));
		}
		GrpcCallTracker calls = context.getBean(GrpcCallTracker.class);
		await().atMost(Duration.ofSeconds(10)).until(() -> calls.openCalls() == 2);

		context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
		ShutdownReport report = awaitReport(context);

		ComponentReport server = report.component(SERVER).orElseThrow();
		assertThat(server.outcome()).as("the server stopped within its budget").isEqualTo(Outcome.COMPLETED);
		assertThat(server.cut()).as("the calls its grace period cut")
			.hasSize(2)
			.allSatisfy((call) -> assertThat(call.work()).startsWith("test.Drain/Stuck (unary, running for "));
		assertThat(report.clean()).as("calls were cut").isFalse();
		for (CompletableFuture<String> call : slow) {
			assertThat(call).failsWithin(Duration.ofSeconds(5));
		}
		assertThat(output).contains("gRPC server '" + SERVER + "' cancelled 2 call(s) still running when its grace "
				+ "period of 1000 ms (spring.grpc.server.shutdown.grace-period) ended");
	}

	@Test
	void callsStillRunningWhenTheCeilingFiresAreNamedInTheServersCutBesideItsStopTheCeilingCut() throws Exception {
		ConfigurableApplicationContext context = start("--lifecycle.drain-delay=200ms",
				"--spring.grpc.server.shutdown.grace-period=30s",
				"--lifecycle.components." + SERVER + ".graceful-shutdown=20s",
				"--lifecycle.global-shutdown-timeout=2s");
		ManagedChannel channel = GrpcClients.to(port(context));
		this.channels.add(channel);
		CompletableFuture<String> stuck = CompletableFuture.supplyAsync(() -> ClientCalls.blockingUnaryCall(channel,
				GrpcDrainApplication.STUCK, CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), ""));
		GrpcCallTracker calls = context.getBean(GrpcCallTracker.class);
		await().atMost(Duration.ofSeconds(10)).until(() -> calls.openCalls() == 1);

		context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
		ShutdownReport report = awaitReport(context);

		assertThat(report.ceilingFired()).isTrue();
		ComponentReport server = report.component(SERVER).orElseThrow();
		assertThat(server.outcome()).isEqualTo(Outcome.TIMEOUT);
		assertThat(server.cut()).as("the call and the stop the ceiling cut")
			.hasSize(2)
			.anySatisfy((cut) -> assertThat(cut.work()).startsWith("test.Drain/Stuck (unary, running for "))
			.contains(new Cut("thread \"lifecycle-stop-" + SERVER + "\" runs its stop callback", true));
		assertThat(stuck).failsWithin(Duration.ofSeconds(5));
	}

	private static int firstNotServed(List<String> answers) {
		for (int i = 0; i < answers.size(); i++) {
			if (!answers.get(i).equals("0")) {
				return i;
			}
		}
		return -1;
	}

	private ConfigurableApplicationContext start(String... arguments) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(GrpcDrainApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.grpc.server.port=0", "spring.application.name=orders", "lifecycle.signals.trap=false",
					"lifecycle.pre-stop.enabled=false", "lifecycle.run-marker.enabled=false",
					"lifecycle.halt-after-ceiling=false", "lifecycle.global-shutdown-timeout=30s")
			.run(arguments);
		this.contexts.add(context);
		this.applications.add(context.getBean(GrpcDrainApplication.class));
		return context;
	}

	private static int port(ConfigurableApplicationContext context) {
		return context.getBean(SERVER, GrpcServerLifecycle.class).getPort();
	}

	private static ShutdownReport awaitReport(ConfigurableApplicationContext context) throws InterruptedException {
		return context.getBean(LifecycleManager.class).awaitTermination(Duration.ofSeconds(40)).orElseThrow();
	}

}
