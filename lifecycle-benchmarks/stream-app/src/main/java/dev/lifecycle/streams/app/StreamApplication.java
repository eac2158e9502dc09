package dev.lifecycle.streams.app;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;

/**
 * The application of {@code stream-scale.sh}: long-lived streams and ordinary requests on
 * MVC/Tomcat, as many instances behind one proxy.
 * <ul>
 * <li>{@code GET /sse}: server-sent events, one a second, each with the second's epoch
 * value as its {@code id:}, the same on every instance; a client that reconnects with
 * {@code Last-Event-ID} gets every later id at once, so across instances no event is lost
 * or sent twice ({@link EventStreamController});</li>
 * <li>{@code /ws}: a WebSocket that says which instance it is on, then ticks once a
 * second ({@link TickWebSocketHandler});</li>
 * <li>{@code GET /hello}: an ordinary short request.</li>
 * </ul>
 * Every answer names the instance ({@code stream.instance}) in an {@code X-Instance}
 * header. It uses no Lifecycle type: run it with {@code --lifecycle.enabled=false} for
 * plain Spring Boot.
 */
@SpringBootApplication
public class StreamApplication {

	public static void main(String[] args) {
		SpringApplication.run(StreamApplication.class, args);
	}

	/** The ordinary request beside the streams. */
	@RestController
	static class Hello {

		private final String instance;

		Hello(@Value("${stream.instance}") String instance) {
			this.instance = instance;
		}

		@GetMapping("/hello")
		String hello(HttpServletResponse response) {
			response.setHeader("X-Instance", this.instance);
			return "hello";
		}

	}

	/** The WebSocket endpoint. */
	@Configuration(proxyBeanMethods = false)
	@EnableWebSocket
	static class WebSocketConfiguration implements WebSocketConfigurer {

		private final TickWebSocketHandler handler;

		WebSocketConfiguration(TickWebSocketHandler handler) {
			this.handler = handler;
		}

		@Override
		public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
			registry.addHandler(this.handler, "/ws").setAllowedOrigins("*");
		}

	}

}
