package dev.lifecycle.autoconfigure.web;

import dev.lifecycle.autoconfigure.LifecycleManagerAutoConfiguration;
import dev.lifecycle.autoconfigure.component.LifecycleComponentAutoConfiguration;
import dev.lifecycle.autoconfigure.process.LifecycleProcessAutoConfiguration;
import dev.lifecycle.autoconfigure.web.http2.JettyHttp2Drain;
import dev.lifecycle.autoconfigure.web.http2.LifecycleHttp2AutoConfiguration;
import dev.lifecycle.autoconfigure.web.http2.NettyHttp2Drain;
import dev.lifecycle.autoconfigure.web.http2.TomcatHttp2Drain;
import dev.lifecycle.autoconfigure.web.reactive.LifecycleReactiveDrainAutoConfiguration;
import dev.lifecycle.autoconfigure.web.servlet.LifecycleServletDrainAutoConfiguration;
import dev.lifecycle.autoconfigure.web.socket.JakartaWebSocketDrain;
import dev.lifecycle.autoconfigure.web.socket.LifecycleWebSocketAutoConfiguration;
import dev.lifecycle.autoconfigure.web.socket.ReactiveWebSocketDrain;
import dev.lifecycle.autoconfigure.web.socket.ServletWebSocketDrain;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.web.socket.server.support.WebSocketHttpRequestHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which parts of the connection drain a web application gets: the HTTP/2 GOAWAY of the
 * servers on its classpath (unless {@code lifecycle.go-away=false}) and the WebSocket
 * drains of its stack.
 */
class LifecycleWebAutoConfigurationTests {

	private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(
			ApplicationAvailabilityAutoConfiguration.class, LifecycleManagerAutoConfiguration.class,
			LifecycleProcessAutoConfiguration.class, LifecycleComponentAutoConfiguration.class,
			LifecycleWebAutoConfiguration.class, LifecycleHttp2AutoConfiguration.class,
			LifecycleServletDrainAutoConfiguration.class, LifecycleReactiveDrainAutoConfiguration.class,
			LifecycleWebSocketAutoConfiguration.class);

	private static final String[] PROPERTIES = { "spring.application.name=orders", "lifecycle.signals.trap=false",
			"lifecycle.pre-stop.enabled=false", "lifecycle.run-marker.enabled=false",
			"lifecycle.halt-after-ceiling=false" };

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
		.withConfiguration(CONFIGURATIONS)
		.withPropertyValues(PROPERTIES);

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(CONFIGURATIONS)
		.withPropertyValues(PROPERTIES);

	@Test
	void aServletApplicationDrainsHttp2AndWebSocketsOnTheServersItHas() {
		this.servlet.run((context) -> assertThat(context).hasSingleBean(Http2Drain.class)
			.hasSingleBean(TomcatHttp2Drain.class)
			.hasSingleBean(JettyHttp2Drain.class)
			.hasSingleBean(ServletWebSocketDrain.class)
			.hasSingleBean(JakartaWebSocketDrain.class)
			.doesNotHaveBean(NettyHttp2Drain.class)
			.doesNotHaveBean(ReactiveWebSocketDrain.class));
	}

	@Test
	void aReactiveApplicationDrainsHttp2AndWebSocketsOnReactorNetty() {
		this.reactive.run((context) -> assertThat(context).hasSingleBean(NettyHttp2Drain.class)
			.hasSingleBean(ReactiveWebSocketDrain.class)
			.doesNotHaveBean(ServletWebSocketDrain.class)
			.doesNotHaveBean(JakartaWebSocketDrain.class));
	}

	@Test
	void goAwayCanBeSwitchedOff() {
		this.servlet.withPropertyValues("lifecycle.go-away=false")
			.run((context) -> assertThat(context).doesNotHaveBean(TomcatHttp2Drain.class)
				.doesNotHaveBean(JettyHttp2Drain.class));
		this.reactive.withPropertyValues("lifecycle.go-away=false")
			.run((context) -> assertThat(context).doesNotHaveBean(NettyHttp2Drain.class));
	}

	@Test
	void withoutTheServerOrSpringWebSocketOnTheClasspathThoseDrainsBackOff() {
		this.servlet.withClassLoader(new FilteredClassLoader(TomcatWebServer.class, WebSocketHttpRequestHandler.class))
			.run((context) -> assertThat(context).doesNotHaveBean(TomcatHttp2Drain.class)
				.doesNotHaveBean(ServletWebSocketDrain.class)
				.hasSingleBean(JettyHttp2Drain.class));
	}

	@Test
	void withoutJakartaWebSocketOnTheClasspathItsDrainBacksOff() {
		this.servlet.withClassLoader(new FilteredClassLoader("jakarta.websocket"))
			.run((context) -> assertThat(context).doesNotHaveBean(JakartaWebSocketDrain.class)
				.hasSingleBean(TomcatHttp2Drain.class));
	}

	@Test
	void theJakartaWebSocketDrainCanBeReplacedByABeanOfItsName() {
		this.servlet.withBean("lifecycleJakartaWebSocketDrain", String.class, () -> "mine")
			.run((context) -> assertThat(context).doesNotHaveBean(JakartaWebSocketDrain.class)
				.getBean("lifecycleJakartaWebSocketDrain")
				.isEqualTo("mine"));
	}

	@Test
	void aNonWebApplicationGetsNoServerDrain() {
		new ApplicationContextRunner().withConfiguration(CONFIGURATIONS)
			.withPropertyValues(PROPERTIES)
			.run((context) -> assertThat(context).doesNotHaveBean(TomcatHttp2Drain.class)
				.doesNotHaveBean(JettyHttp2Drain.class)
				.doesNotHaveBean(NettyHttp2Drain.class));
	}

	@Test
	void aNativeImageCanListTomcatsConnections() {
		RuntimeHints hints = new RuntimeHints();
		new TomcatHttp2Drain.Hints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(org.apache.coyote.AbstractProtocol.class, "getEndpoint")).accepts(hints);
	}

}
