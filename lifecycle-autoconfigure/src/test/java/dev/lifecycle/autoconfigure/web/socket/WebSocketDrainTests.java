package dev.lifecycle.autoconfigure.web.socket;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.spring.ShutdownHandler;
import jakarta.websocket.OnMessage;
import jakarta.websocket.server.ServerEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;
import org.springframework.web.reactive.socket.server.support.WebSocketHandlerAdapter;
import org.springframework.web.reactive.socket.server.upgrade.ReactorNettyRequestUpgradeStrategy;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;
import org.springframework.web.socket.handler.TextWebSocketHandler;
import org.springframework.web.socket.server.standard.ServerEndpointExporter;
import org.springframework.web.socket.server.standard.StandardWebSocketUpgradeStrategy;
import org.springframework.web.socket.server.support.DefaultHandshakeHandler;
import org.springframework.web.socket.sockjs.client.RestTemplateXhrTransport;
import org.springframework.web.socket.sockjs.client.SockJsClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebSocket sessions end with 1001 "going away" at the stream end point, on a real server
 * with a real WebSocket client, with nothing registered by the application, and never
 * hold the shutdown: servlet (Spring WebSocket on Tomcat and Jetty, plain handlers,
 * SockJS and STOMP) and reactive (WebFlux on Reactor Netty).
 */
class WebSocketDrainTests {

	private static final String[] COMMON = { "server.port=0", "spring.application.name=websocket",
			"lifecycle.signals.trap=false", "lifecycle.close-context=false", "lifecycle.pre-stop.enabled=false",
			"lifecycle.run-marker.enabled=false", "lifecycle.halt-after-ceiling=false", "lifecycle.drain-delay=1s",
			"lifecycle.global-shutdown-timeout=20s", "spring.lifecycle.timeout-per-shutdown-phase=30s" };

	private static ConfigurableApplicationContext start(Class<?> application, WebApplicationType type,
			String... properties) {
		List<String> all = new ArrayList<>(List.of(COMMON));
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(application).web(type).properties(all.toArray(String[]::new)).run();
	}

	@Test
	void aServletWebSocketClosesWithGoingAwayWhenTheDrainDelayEndsAndDoesNotHoldTheShutdown() throws Exception {
		try (ConfigurableApplicationContext context = start(ServletApplication.class, WebApplicationType.SERVLET)) {
			assertGoingAwayAfterTheDrainDelay(context);
		}
	}

	@Test
	void aServletWebSocketOnJettyClosesWithGoingAwayWhenTheDrainDelayEnds() throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ServletApplication.class)
			.web(WebApplicationType.SERVLET)
			.properties(COMMON)
			.run("--spring.autoconfigure.exclude="
					+ "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration",
					"--test.upgrade=server-default")) {
			assertThat(((WebServerApplicationContext) context).getWebServer().getClass().getSimpleName())
				.contains("Jetty");
			assertGoingAwayAfterTheDrainDelay(context);
		}
	}

	@Test
	void aReactiveWebSocketClosesWithGoingAwayWhenTheDrainDelayEndsAndDoesNotHoldTheShutdown() throws Exception {
		try (ConfigurableApplicationContext context = start(ReactiveApplication.class, WebApplicationType.REACTIVE)) {
			assertThat(((WebServerApplicationContext) context).getWebServer().getClass().getSimpleName())
				.contains("Netty");
			assertGoingAwayAfterTheDrainDelay(context);
		}
	}

	@Test
	void aWebSocketOpenedDuringTheDrainWithConnectionCloseOnStillOpensAndThenGoesAway() throws Exception {
		for (WebApplicationType type : List.of(WebApplicationType.SERVLET, WebApplicationType.REACTIVE)) {
			Class<?> application = (type == WebApplicationType.SERVLET) ? ServletApplication.class
					: ReactiveApplication.class;
			try (ConfigurableApplicationContext context = start(application, type, "lifecycle.connection-close=true",
					"lifecycle.drain-delay=2s")) {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				manager.triggerShutdown(ShutdownReason.SIGNAL, "test");

				Client client = Client.connect(context);
				assertThat(client.echo("hi")).as(type + ": the handshake and the session work").isEqualTo("echo:hi");
				assertThat(client.closeCode().get(10, TimeUnit.SECONDS)).isEqualTo(1001);
				context.getBean(ShutdownHold.class).release.countDown();
			}
		}
	}

	@Test
	void withServiceRestartChosenManySessionsCloseWith1012TheirEndsSpreadOverTheWindow() throws Exception {
		for (WebApplicationType type : List.of(WebApplicationType.SERVLET, WebApplicationType.REACTIVE)) {
			Class<?> application = (type == WebApplicationType.SERVLET) ? ServletApplication.class
					: ReactiveApplication.class;
			try (ConfigurableApplicationContext context = start(application, type,
					"lifecycle.streams.websocket-close-code=service-restart", "lifecycle.streams.end-window=2s",
					"lifecycle.streams.end-rate=10")) {
				List<java.util.concurrent.CompletableFuture<long[]>> closes = new ArrayList<>();
				for (int i = 0; i < 30; i++) {
					Client client = Client.connect(context);
					assertThat(client.echo("hi")).isEqualTo("echo:hi");
					closes.add(client.closeCode().thenApply((code) -> new long[] { code, System.nanoTime() }));
				}
				context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

				java.util.concurrent.CompletableFuture
					.allOf(closes.toArray(java.util.concurrent.CompletableFuture[]::new))
					.get(20, TimeUnit.SECONDS);
				assertThat(closes).as(type.toString())
					.allSatisfy((close) -> assertThat(close.join()[0]).isEqualTo(1012));
				long first = closes.stream().mapToLong((close) -> close.join()[1]).min().orElseThrow();
				long last = closes.stream().mapToLong((close) -> close.join()[1]).max().orElseThrow();
				// Spread over two seconds by the schedule; a busy machine can only
				// stretch it.
				assertThat(Duration.ofNanos(last - first)).as(type.toString()).isGreaterThan(Duration.ofSeconds(1));
				context.getBean(ShutdownHold.class).release.countDown();
			}
		}
	}

	@Test
	void withStreamsEndingAtShutdownAWebSocketClosesAtTheFirstInstant() throws Exception {
		try (ConfigurableApplicationContext context = start(ServletApplication.class, WebApplicationType.SERVLET,
				"lifecycle.streams.end-at=shutdown", "lifecycle.drain-delay=3s")) {
			Client client = Client.connect(context);
			long triggered = System.nanoTime();
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			assertThat(client.closeCode().get(5, TimeUnit.SECONDS)).isEqualTo(1001);
			assertThat(Duration.ofNanos(System.nanoTime() - triggered)).as("well before the drain delay ends")
				.isLessThan(Duration.ofSeconds(2));
			context.getBean(ShutdownHold.class).release.countDown();
		}
	}

	@Test
	void aStompSessionClosesWithGoingAwayToo() throws Exception {
		try (ConfigurableApplicationContext context = start(StompApplication.class, WebApplicationType.SERVLET,
				"lifecycle.streams.end-at=shutdown", "lifecycle.drain-delay=3s")) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			Client client = Client.connect(port, "/stomp");
			assertThat(client.echo("CONNECT\naccept-version:1.2\nhost:localhost\n\n\0")).startsWith("CONNECTED");
			long triggered = System.nanoTime();
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			assertThat(client.closeCode().get(5, TimeUnit.SECONDS)).isEqualTo(1001);
			// Spring's STOMP handler closes its sessions too, but only when it stops,
			// after the drain delay.
			assertThat(Duration.ofNanos(System.nanoTime() - triggered)).as("well before the drain delay ends")
				.isLessThan(Duration.ofSeconds(2));
		}
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void aSockJsSessionOnAnHttpStreamingTransportClosesWithGoingAwayToo(CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext context = start(SockJsApplication.class, WebApplicationType.SERVLET,
				"lifecycle.streams.end-at=shutdown", "lifecycle.drain-delay=3s",
				"logging.level.org.springframework.web.socket.handler.LoggingWebSocketHandlerDecorator=debug")) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			CompletableFuture<String> reply = new CompletableFuture<>();
			CompletableFuture<CloseStatus> closed = new CompletableFuture<>();
			// XHR streaming: one long HTTP response carries the server's frames, the kind
			// of response that would otherwise hold the web server's graceful shutdown.
			SockJsClient client = new SockJsClient(List.of(new RestTemplateXhrTransport()));
			WebSocketSession session = client.execute(new TextWebSocketHandler() {
				@Override
				protected void handleTextMessage(WebSocketSession session, TextMessage message) {
					reply.complete(message.getPayload());
				}

				@Override
				public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
					closed.complete(status);
				}
			}, "http://localhost:" + port + "/sockjs").get(10, TimeUnit.SECONDS);
			session.sendMessage(new TextMessage("hi"));
			assertThat(reply.get(10, TimeUnit.SECONDS)).isEqualTo("echo:hi");
			assertThat(session.getClass().getSimpleName()).contains("Xhr");
			assertThat(
					output.getOut().lines().filter((line) -> line.contains("New ") && line.contains(session.getId())))
				.as("Spring logs the new session once, as without Lifecycle")
				.hasSize(1);

			long triggered = System.nanoTime();
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			assertThat(closed.get(5, TimeUnit.SECONDS).getCode()).isEqualTo(1001);
			assertThat(Duration.ofNanos(System.nanoTime() - triggered)).as("well before the drain delay ends")
				.isLessThan(Duration.ofSeconds(2));
		}
	}

	@Test
	void aSockJsSessionOverWebSocketGetsItsCloseFrameBeforeTheWebServerClosesTheSocket() throws Exception {
		// Tomcat closes every WebSocket it holds when Lifecycle ends the plain Jakarta
		// sessions: a SockJS session must have said goodbye in its own protocol by then.
		try (ConfigurableApplicationContext context = start(SockJsApplication.class, WebApplicationType.SERVLET,
				"lifecycle.streams.end-at=shutdown", "lifecycle.drain-delay=3s")) {
			assertThat(context.getBeansOfType(JakartaWebSocketDrain.class)).hasSize(1);
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			// SockJS's WebSocket transport, raw: "o" on open, "a[...]" for messages,
			// "c[code,reason]" to close.
			Client client = Client.connect(port, "/sockjs/000/s1/websocket");
			client.socket().sendText("[\"hi\"]", true).get(5, TimeUnit.SECONDS);
			org.awaitility.Awaitility.await()
				.atMost(Duration.ofSeconds(10))
				.until(() -> client.frames().contains("a[\"echo:hi\"]"));

			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			assertThat(client.closeCode().get(5, TimeUnit.SECONDS)).isEqualTo(1001);
			assertThat(client.frames()).as("SockJS's own close frame, then the socket's close")
				.last()
				.asString()
				.startsWith("c[1001,");
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void aPlainJakartaServerEndpointSessionClosesWithGoingAwayWhenTheStreamsEnd(String server) throws Exception {
		List<String> arguments = new ArrayList<>();
		if (server.equals("jetty")) {
			arguments.add("--spring.autoconfigure.exclude="
					+ "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration");
		}
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(JakartaEndpointApplication.class)
			.web(WebApplicationType.SERVLET)
			.properties(COMMON)
			.properties("lifecycle.streams.end-at=shutdown", "lifecycle.drain-delay=3s")
			.run(arguments.toArray(String[]::new))) {
			assertThat(((WebServerApplicationContext) context).getWebServer().getClass().getSimpleName().toLowerCase())
				.startsWith(server);
			Client client = Client.connect(((WebServerApplicationContext) context).getWebServer().getPort(),
					"/jakarta");
			assertThat(client.echo("hi")).isEqualTo("jakarta:hi");

			long triggered = System.nanoTime();
			context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");

			assertThat(client.closeCode().get(5, TimeUnit.SECONDS)).isEqualTo(1001);
			assertThat(Duration.ofNanos(System.nanoTime() - triggered)).as("well before the drain delay ends")
				.isLessThan(Duration.ofSeconds(2));
			context.getBean(ShutdownHold.class).release.countDown();
		}
	}

	private static void assertGoingAwayAfterTheDrainDelay(ConfigurableApplicationContext context) throws Exception {
		Client client = Client.connect(context);
		assertThat(client.echo("hi")).isEqualTo("echo:hi");

		long triggered = System.nanoTime();
		LifecycleManager manager = context.getBean(LifecycleManager.class);
		manager.triggerShutdown(ShutdownReason.SIGNAL, "test");

		assertThat(client.closeCode().get(10, TimeUnit.SECONDS)).isEqualTo(1001);
		assertThat(Duration.ofNanos(System.nanoTime() - triggered)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
		ShutdownHold hold = context.getBean(ShutdownHold.class);
		assertThat(hold.finished).as("closed by Lifecycle, before the web server stops").isFalse();
		hold.release.countDown();
		assertThat(manager.awaitTermination(Duration.ofSeconds(10))).isPresent();
		long closing = System.nanoTime();
		context.close();
		assertThat(Duration.ofNanos(System.nanoTime() - closing)).as("the web server's graceful shutdown")
			.isLessThan(Duration.ofSeconds(10));
	}

	/**
	 * Holds the sequence after the drain delay, before the web server stops (which would
	 * close every WebSocket too), until the test has seen its close, or for longer than
	 * the test waits for it.
	 */
	static final class ShutdownHold {

		final CountDownLatch release = new CountDownLatch(1);

		volatile boolean finished;

		@ShutdownHandler(timeout = "20s")
		void hold() throws InterruptedException {
			this.release.await(15, TimeUnit.SECONDS);
			this.finished = true;
		}

	}

	/**
	 * The JDK's WebSocket client: the first text it receives, every text frame, and the
	 * close code.
	 */
	private record Client(WebSocket socket, CompletableFuture<String> reply, List<String> frames,
			CompletableFuture<Integer> closeCode) {

		static Client connect(ConfigurableApplicationContext context) throws Exception {
			return connect(((WebServerApplicationContext) context).getWebServer().getPort(), "/ws");
		}

		static Client connect(int port, String path) throws Exception {
			CompletableFuture<String> reply = new CompletableFuture<>();
			List<String> frames = new java.util.concurrent.CopyOnWriteArrayList<>();
			CompletableFuture<Integer> closeCode = new CompletableFuture<>();
			WebSocket socket = HttpClient.newHttpClient()
				.newWebSocketBuilder()
				.buildAsync(URI.create("ws://localhost:" + port + path), new WebSocket.Listener() {
					@Override
					public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
						reply.complete(data.toString());
						frames.add(data.toString());
						webSocket.request(1);
						return null;
					}

					@Override
					public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
						closeCode.complete(statusCode);
						return null;
					}

					@Override
					public void onError(WebSocket webSocket, Throwable error) {
						closeCode.completeExceptionally(error);
					}
				})
				.get(5, TimeUnit.SECONDS);
			return new Client(socket, reply, frames, closeCode);
		}

		String echo(String text) throws Exception {
			this.socket.sendText(text, true).get(5, TimeUnit.SECONDS);
			return this.reply.get(5, TimeUnit.SECONDS);
		}

	}

	/** A plain Jakarta WebSocket endpoint, exported to the web server by Spring. */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(ShutdownHold.class)
	static class JakartaEndpointApplication {

		@Bean
		ServerEndpointExporter serverEndpointExporter() {
			ServerEndpointExporter exporter = new ServerEndpointExporter();
			exporter.setAnnotatedEndpointClasses(JakartaEcho.class);
			return exporter;
		}

	}

	@ServerEndpoint("/jakarta")
	public static class JakartaEcho {

		@OnMessage
		public String echo(String message) {
			return "jakarta:" + message;
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@EnableWebSocket
	@Import(ShutdownHold.class)
	static class ServletApplication implements WebSocketConfigurer, EnvironmentAware {

		private String upgrade = "standard";

		@Override
		public void setEnvironment(Environment environment) {
			this.upgrade = environment.getProperty("test.upgrade", "standard");
		}

		@Override
		public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
			// Tomcat's and Jetty's WebSocket classes are both on the test classpath, and
			// Spring would pick Jetty's upgrade: Tomcat needs the standard one.
			DefaultHandshakeHandler handshake = this.upgrade.equals("standard")
					? new DefaultHandshakeHandler(new StandardWebSocketUpgradeStrategy())
					: new DefaultHandshakeHandler();
			registry.addHandler(new TextWebSocketHandler() {
				@Override
				protected void handleTextMessage(WebSocketSession session, TextMessage message) throws Exception {
					session.sendMessage(new TextMessage("echo:" + message.getPayload()));
				}
			}, "/ws").setHandshakeHandler(handshake);
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@EnableWebSocket
	static class SockJsApplication implements WebSocketConfigurer {

		@Override
		public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
			registry.addHandler(new TextWebSocketHandler() {
				@Override
				protected void handleTextMessage(WebSocketSession session, TextMessage message) throws Exception {
					session.sendMessage(new TextMessage("echo:" + message.getPayload()));
				}
			}, "/sockjs")
				.setHandshakeHandler(new DefaultHandshakeHandler(new StandardWebSocketUpgradeStrategy()))
				.withSockJS();
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@EnableWebSocketMessageBroker
	static class StompApplication implements WebSocketMessageBrokerConfigurer {

		@Override
		public void registerStompEndpoints(StompEndpointRegistry registry) {
			registry.addEndpoint("/stomp")
				.setHandshakeHandler(new DefaultHandshakeHandler(new StandardWebSocketUpgradeStrategy()));
		}

		@Override
		public void configureMessageBroker(MessageBrokerRegistry registry) {
			registry.enableSimpleBroker("/topic");
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(ShutdownHold.class)
	static class ReactiveApplication {

		@Bean
		SimpleUrlHandlerMapping webSocketMapping() {
			org.springframework.web.reactive.socket.WebSocketHandler echo = (session) -> session
				.send(session.receive().map((message) -> session.textMessage("echo:" + message.getPayloadAsText())));
			return new SimpleUrlHandlerMapping(Map.of("/ws", echo), -1);
		}

		/**
		 * Pins Reactor Netty's upgrade (Tomcat's and Jetty's classes are on the test
		 * classpath too).
		 */
		@Bean
		WebSocketHandlerAdapter webSocketHandlerAdapter() {
			return new WebSocketHandlerAdapter(new HandshakeWebSocketService(new ReactorNettyRequestUpgradeStrategy()));
		}

	}

}
