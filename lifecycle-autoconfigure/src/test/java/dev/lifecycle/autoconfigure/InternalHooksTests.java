package dev.lifecycle.autoconfigure;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.lifecycle.autoconfigure.actuate.LifecycleEndpoint;
import dev.lifecycle.autoconfigure.actuate.LifecycleEndpoint.HookDescriptor;
import dev.lifecycle.autoconfigure.web.RawHttp;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import io.grpc.BindableService;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCalls;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every hook into server and Spring internals resolves on the servers and versions Spring
 * Boot manages, on real servers (Tomcat with a separate management server and a gRPC
 * server, Jetty, Reactor Netty), as the {@code lifecycle} endpoint lists them; and
 * serving requests during a drain resolves none again.
 */
class InternalHooksTests {

	private static final List<String> EVERY_SERVER = List.of("spring.task-decorator", "spring.failed-start-bean",
			"spring.destroy-frame", "boot.web-server-lifecycles", "boot.logging-lifecycle", "grpc.started-server",
			"batch.job-frame");

	private static final List<String> SERVLET = List.of("tomcat.pipelining", "tomcat.connections",
			"tomcat.request-connection", "jetty.pipelining");

	@Test
	void onTomcatEveryHookResolvesAndServingRequestsDuringTheDrainResolvesNoneAgain() throws Exception {
		try (ConfigurableApplicationContext context = start(WebApplicationType.SERVLET, "tomcat",
				"management.server.port=0", "lifecycle.drain-delay=2s")) {
			Map<String, HookDescriptor> hooks = hooks(context);
			assertThat(hooks).as("the hooks the endpoint lists")
				.containsKeys(EVERY_SERVER.toArray(String[]::new))
				.containsKeys(SERVLET.toArray(String[]::new))
				.containsKey("boot.management-server");
			assertEveryHookResolved(hooks);
			String json = endpointJson(context);
			assertThat(json).contains("\"hooks\":[")
				.contains("\"name\":\"tomcat.pipelining\"")
				.contains("\"state\":\"RESOLVED\"")
				.doesNotContain("\"state\":\"MISSED\"");

			InternalHooks registry = context.getBean(InternalHooks.class);
			int resolutions = registry.resolutions();
			List<InternalHooks.Hook> before = registry.hooks();
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			for (int i = 0; i < 3; i++) {
				try (Socket socket = new Socket("localhost", port)) {
					socket.setSoTimeout(10_000);
					RawHttp.Response during = RawHttp.get(socket, "/hello");
					assertThat(during.status()).isEqualTo(200);
					assertThat(during.header("connection")).as("the drain's pipelining check ran")
						.isEqualToIgnoringCase("close");
				}
			}
			assertThat(registry.resolutions()).as("hooks resolved while requests were served").isEqualTo(resolutions);
			assertThat(registry.hooks()).isEqualTo(before);
		}
	}

	@Test
	void onJettyEveryHookResolves() {
		try (ConfigurableApplicationContext context = start(WebApplicationType.SERVLET, "jetty")) {
			Map<String, HookDescriptor> hooks = hooks(context);
			assertThat(hooks).containsKeys(EVERY_SERVER.toArray(String[]::new))
				.containsKeys(SERVLET.toArray(String[]::new));
			assertThat(hooks.get("boot.management-server").state()).isEqualTo("NOT_APPLICABLE");
			assertEveryHookResolved(hooks);
		}
	}

	@Test
	void onReactorNettyEveryHookResolves() {
		try (ConfigurableApplicationContext context = start(WebApplicationType.REACTIVE, "netty")) {
			Map<String, HookDescriptor> hooks = hooks(context);
			assertThat(hooks).containsKeys(EVERY_SERVER.toArray(String[]::new)).containsKey("netty.pipelining");
			assertEveryHookResolved(hooks);
		}
	}

	/** Every hook resolved, but those for a part this application does not run. */
	private static void assertEveryHookResolved(Map<String, HookDescriptor> hooks) {
		List<String> unresolved = new ArrayList<>();
		hooks.values().forEach((hook) -> {
			if (!hook.state().equals("RESOLVED")
					&& !(hook.state().equals("NOT_APPLICABLE") && hook.name().equals("boot.management-server"))) {
				unresolved.add(hook.name() + " " + hook.state() + ": " + hook.reason());
			}
		});
		assertThat(unresolved).as("hooks not resolved").isEmpty();
	}

	private static Map<String, HookDescriptor> hooks(ConfigurableApplicationContext context) {
		return context.getBean(LifecycleEndpoint.class)
			.lifecycle()
			.hooks()
			.stream()
			.collect(Collectors.toMap(HookDescriptor::name, Function.identity()));
	}

	private static String endpointJson(ConfigurableApplicationContext context) throws Exception {
		String port = context.getEnvironment().getProperty("local.management.port");
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
		HttpResponse<String> response = http
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/lifecycle"))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

	private static ConfigurableApplicationContext start(WebApplicationType type, String server, String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.grpc.server.port=0",
				"spring.application.name=hooks", "lifecycle.signals.trap=false", "lifecycle.close-context=false",
				"lifecycle.pre-stop.enabled=false", "lifecycle.run-marker.enabled=false",
				"lifecycle.halt-after-ceiling=false", "lifecycle.drain-delay=1ms",
				"lifecycle.global-shutdown-timeout=20s", "management.endpoints.web.exposure.include=lifecycle",
				"spring.reactor.netty.shutdown-quiet-period=0s"));
		all.addAll(List.of(properties));
		String reactive = type == WebApplicationType.REACTIVE ? ".reactive." : ".servlet.";
		List<String> excluded = new ArrayList<>();
		if (!server.equals("tomcat")) {
			excluded.add("org.springframework.boot.tomcat.autoconfigure" + reactive + "Tomcat"
					+ (type == WebApplicationType.REACTIVE ? "Reactive" : "Servlet") + "WebServerAutoConfiguration");
		}
		if (!server.equals("jetty") && type == WebApplicationType.REACTIVE) {
			excluded
				.add("org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration");
		}
		if (server.equals("tomcat")) {
			// Both servers offer the separate management server's context factory.
			excluded.add("org.springframework.boot.jetty.autoconfigure.actuate.web.server."
					+ "JettyServletManagementContextAutoConfiguration");
		}
		return new SpringApplicationBuilder(HooksApplication.class).web(type)
			.properties(all.toArray(String[]::new))
			.run(excluded.isEmpty() ? new String[0]
					: new String[] { "--spring.autoconfigure.exclude=" + String.join(",", excluded) });
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class HooksApplication {

		private static final MethodDescriptor<byte[], byte[]> ECHO = MethodDescriptor.<byte[], byte[]>newBuilder()
			.setType(MethodDescriptor.MethodType.UNARY)
			.setFullMethodName(MethodDescriptor.generateFullMethodName("test.Hooks", "Echo"))
			.setRequestMarshaller(Bytes.INSTANCE)
			.setResponseMarshaller(Bytes.INSTANCE)
			.build();

		@Bean
		BindableService echoService() {
			ServerServiceDefinition definition = ServerServiceDefinition.builder("test.Hooks")
				.addMethod(ECHO, ServerCalls.asyncUnaryCall((request, response) -> {
					response.onNext(request);
					response.onCompleted();
				}))
				.build();
			return () -> definition;
		}

		@RestController
		static class Hello {

			@GetMapping("/hello")
			String hello() {
				return "hello";
			}

		}

	}

	/** Bytes as they are: enough for a service without generated code. */
	enum Bytes implements MethodDescriptor.Marshaller<byte[]> {

		INSTANCE;

		@Override
		public InputStream stream(byte[] value) {
			return new ByteArrayInputStream(value);
		}

		@Override
		public byte[] parse(InputStream stream) {
			try {
				return stream.readAllBytes();
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
