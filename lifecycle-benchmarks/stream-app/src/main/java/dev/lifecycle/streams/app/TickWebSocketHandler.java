package dev.lifecycle.streams.app;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.ConcurrentWebSocketSessionDecorator;
import org.springframework.web.socket.handler.TextWebSocketHandler;

/**
 * {@code /ws}: sends {@code instance <name>} when a session opens, then
 * {@code tick <second>} once a second. Lifecycle closes the sessions when the streams end
 * (1001 going away); plain Spring Boot holds them until its graceful shutdown times out.
 */
@Component
public class TickWebSocketHandler extends TextWebSocketHandler {

	private final String instance;

	private final Map<String, WebSocketSession> sessions = new ConcurrentHashMap<>();

	public TickWebSocketHandler(Ticker ticker, @Value("${stream.instance}") String instance) {
		this.instance = instance;
		ticker.onTick((second) -> {
			TextMessage tick = new TextMessage("tick " + second);
			this.sessions.values().forEach((session) -> send(session, tick));
		});
	}

	@Override
	public void afterConnectionEstablished(WebSocketSession session) {
		// Sends from the ticker and from here never overlap on one session.
		WebSocketSession concurrent = new ConcurrentWebSocketSessionDecorator(session, 5000, 64 * 1024);
		send(concurrent, new TextMessage("instance " + this.instance));
		this.sessions.put(session.getId(), concurrent);
	}

	@Override
	public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
		this.sessions.remove(session.getId());
	}

	private void send(WebSocketSession session, TextMessage message) {
		try {
			session.sendMessage(message);
		}
		catch (IOException | RuntimeException ex) {
			this.sessions.remove(session.getId());
		}
	}

}
