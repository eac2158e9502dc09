package dev.lifecycle.scenarios;

import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;
import org.springframework.web.reactive.socket.WebSocketHandler;

/**
 * The same WebSocket endpoint on WebFlux, {@code /ws}: a {@link WebSocketHandler} that
 * echoes each text message as {@code echo:<message>}, mapped ahead of the annotated
 * controllers.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class ReactiveWebSockets {

	@Bean
	SimpleUrlHandlerMapping webSocketMapping() {
		WebSocketHandler echo = (session) -> session
			.send(session.receive().map((message) -> session.textMessage("echo:" + message.getPayloadAsText())));
		return new SimpleUrlHandlerMapping(Map.of("/ws", echo), -1);
	}

}
