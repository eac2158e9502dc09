package dev.lifecycle.autoconfigure.component;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.Tier;
import dev.lifecycle.testfixtures.Utf8Marshaller;
import io.grpc.BindableService;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring's own stop order is the floor of Lifecycle's, on each stack: what plain Spring
 * stops after the web server (Reactor Netty's event loops) and what the components call
 * (an in-process gRPC server) stop after them, so a long request in flight through the
 * shutdown is answered and a component's calls while it stops are served. Each scenario
 * runs a real server with real clients and asserts what a user sees: the answers and the
 * report.
 */
class SpringOrderTests {

	private static final HttpClient http = HttpClient.newHttpClient();

	@ParameterizedTest
	@EnumSource(value = Stack.class, names = "WEBFLUX_.*", mode = EnumSource.Mode.MATCH_ANY)
	void aLongRequestInFlightAtTheDrainsEndIsAnsweredAndTheReportIsClean(Stack stack) throws Exception {
		try (ConfigurableApplicationContext context = stack.start(OrderApplication.class)) {
			OrderApplication application = context.getBean(OrderApplication.class);
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			CompletableFuture<HttpResponse<String>> slow = http.sendAsync(
					HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/slow?millis=3500")).build(),
					HttpResponse.BodyHandlers.ofString());
			await().atMost(Duration.ofSeconds(10)).until(() -> application.received.get() == 1);

			LifecycleManager manager = context.getBean(LifecycleManager.class);
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");

			HttpResponse<String> response = slow.get(30, TimeUnit.SECONDS);
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("slept 3500 ms");
			ShutdownReport report = awaitReport(manager);
			assertThat(report.clean()).as(report.toString()).isTrue();
			assertThat(report.failedRequests()).isZero();
			if (stack == Stack.WEBFLUX_REACTOR_NETTY) {
				assertThat(manager.components()).filteredOn((view) -> view.name().equals("reactorResourceFactory"))
					.singleElement()
					.satisfies((view) -> assertThat(view.tier()).isEqualTo(Tier.INFRASTRUCTURE));
			}
		}
	}

	@ParameterizedTest
	@EnumSource(value = Stack.class, names = { "NO_WEB_SERVER", "WEBFLUX_REACTOR_NETTY" })
	void callsAComponentMakesToTheInProcessGrpcServerWhileItStopsAreServed(Stack stack) throws Exception {
		String server = "order-" + System.nanoTime();
		try (ConfigurableApplicationContext context = stack.start(InProcessGrpcApplication.class,
				"spring.grpc.server.inprocess.name=" + server, "spring.grpc.server.port=0")) {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");

			ShutdownReport report = awaitReport(manager);
			InProcessGrpcApplication.Caller caller = context.getBean(InProcessGrpcApplication.Caller.class);
			assertThat(caller.answers).containsExactly("echo 1", "echo 2", "echo 3");
			assertThat(report.component("caller").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
			assertThat(report.clean()).as(report.toString()).isTrue();
		}
	}

	private static ShutdownReport awaitReport(LifecycleManager manager) {
		return await().atMost(Duration.ofSeconds(40))
			.until(manager::report, (report) -> report.isPresent())
			.orElseThrow();
	}

	/**
	 * The stacks a scenario can run on: the web application type and the server it runs.
	 */
	enum Stack {

		NO_WEB_SERVER(WebApplicationType.NONE, null),

		WEBFLUX_REACTOR_NETTY(WebApplicationType.REACTIVE, "netty"),

		WEBFLUX_TOMCAT(WebApplicationType.REACTIVE, "tomcat"),

		WEBFLUX_JETTY(WebApplicationType.REACTIVE, "jetty");

		private static final List<String> REACTIVE_SERVERS = List.of(
				"netty:org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration",
				"tomcat:org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration",
				"jetty:org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration");

		private final WebApplicationType type;

		private final String server;

		Stack(WebApplicationType type, String server) {
			this.type = type;
			this.server = server;
		}

		ConfigurableApplicationContext start(Class<?> application, String... properties) {
			List<String> all = new ArrayList<>(List.of("server.port=0", "spring.application.name=spring-order",
					"lifecycle.signals.trap=false", "lifecycle.close-context=false", "lifecycle.pre-stop.enabled=false",
					"lifecycle.run-marker.enabled=false", "lifecycle.drain-delay=1s",
					"lifecycle.global-shutdown-timeout=30s", "spring.grpc.server.port=0"));
			all.addAll(List.of(properties));
			List<String> excluded = new ArrayList<>();
			for (String server : REACTIVE_SERVERS) {
				if (!server.startsWith(this.server + ":")) {
					excluded.add(server.substring(server.indexOf(':') + 1));
				}
			}
			ConfigurableApplicationContext context = new SpringApplicationBuilder(application).web(this.type)
				.properties(all.toArray(String[]::new))
				.run("--spring.autoconfigure.exclude=" + String.join(",", excluded));
			if (this.server != null) {
				assertThat(((WebServerApplicationContext) context).getWebServer().getClass().getSimpleName())
					.containsIgnoringCase(this.server);
			}
			return context;
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@RestController
	static class OrderApplication {

		final AtomicInteger received = new AtomicInteger();

		@GetMapping("/slow")
		Mono<String> slow(@RequestParam long millis) {
			this.received.incrementAndGet();
			return Mono.delay(Duration.ofMillis(millis)).map((tick) -> "slept " + millis + " ms");
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class InProcessGrpcApplication {

		static final MethodDescriptor<String, String> ECHO = MethodDescriptor.<String, String>newBuilder()
			.setType(MethodDescriptor.MethodType.UNARY)
			.setFullMethodName(MethodDescriptor.generateFullMethodName("test.Order", "Echo"))
			.setRequestMarshaller(Utf8Marshaller.INSTANCE)
			.setResponseMarshaller(Utf8Marshaller.INSTANCE)
			.build();

		@Bean
		BindableService orderService() {
			ServerServiceDefinition definition = ServerServiceDefinition.builder("test.Order")
				.addMethod(ECHO, ServerCalls.asyncUnaryCall((request, response) -> {
					response.onNext("echo " + request);
					response.onCompleted();
				}))
				.build();
			return () -> definition;
		}

		@Bean
		Caller caller(@Value("${spring.grpc.server.inprocess.name}") String server) {
			return new Caller(server);
		}

		/**
		 * A phase-10 bean that calls the in-process server while it stops, as a flush
		 * would.
		 */
		static final class Caller implements SmartLifecycle {

			final List<String> answers = new CopyOnWriteArrayList<>();

			private final String server;

			private volatile boolean running;

			Caller(String server) {
				this.server = server;
			}

			@Override
			public void start() {
				this.running = true;
			}

			@Override
			public void stop() {
				ManagedChannel channel = InProcessChannelBuilder.forName(this.server).directExecutor().build();
				try {
					for (int i = 1; i <= 3; i++) {
						this.answers.add(ClientCalls.blockingUnaryCall(channel, ECHO, CallOptions.DEFAULT, "" + i));
					}
				}
				catch (StatusRuntimeException ex) {
					this.answers.add(ex.getStatus().toString());
				}
				finally {
					channel.shutdownNow();
					this.running = false;
				}
			}

			@Override
			public boolean isRunning() {
				return this.running;
			}

			@Override
			public int getPhase() {
				return 10;
			}

		}

	}

}
