package dev.lifecycle.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Long-lived HTTP responses: server-sent events and NDJSON streams. Lifecycle completes
 * them cleanly during a shutdown, so they never hold the web server's graceful shutdown;
 * any other body is waited for like a request.
 *
 * <p>
 * The {@code lifecycle.streams.*} group of {@link LifecycleManagerProperties}.
 */
public class LifecycleStreamsProperties {

	/**
	 * When open streams are ended (server-sent events, NDJSON streams, and WebSocket
	 * sessions, closed with 1001 going away): 'drain-end' (when the drain delay ends,
	 * once load balancers route new connections elsewhere) or 'shutdown' (at the first
	 * instant of a shutdown). A stream that starts after that point ends at once.
	 */
	private EndAt endAt = EndAt.DRAIN_END;

	/**
	 * The longest time over which the ends of the streams open at 'end-at' are spread,
	 * evenly and with jitter, so that their clients do not all reconnect to the instances
	 * that stay up in one instant. Defaults to the drain delay, at most half of
	 * 'spring.lifecycle.timeout-per-shutdown-phase' (and of
	 * 'spring.grpc.server.shutdown.grace-period' with a gRPC server). '0s' ends them all
	 * at once. Must be shorter than each of those, and with the drain delay shorter than
	 * the global shutdown timeout.
	 */
	private @Nullable Duration endWindow;

	/**
	 * The most streams ended per second while the window allows it: the ends of N streams
	 * are spread over N / end-rate seconds, at most the window, so a few streams end at
	 * once.
	 */
	private int endRate = 500;

	/**
	 * The close code of the WebSocket sessions ended: 'going-away' (1001, the endpoint is
	 * going away) or 'service-restart' (1012, the service is restarting: come back, to
	 * another instance). Plain Jakarta endpoints on Tomcat always get 1001.
	 */
	private WebSocketCloseCode websocketCloseCode = WebSocketCloseCode.GOING_AWAY;

	/**
	 * The reconnection time advised to the clients of the server-sent event streams
	 * ended: before its end, each stream gets a 'retry:' field drawn uniformly between
	 * half of this and all of it, so that browsers' EventSource and other clients that
	 * honour it come back spread out. '0s' sends none.
	 */
	private Duration sseRetry = Duration.ofSeconds(5);

	public Duration getSseRetry() {
		return this.sseRetry;
	}

	public void setSseRetry(Duration sseRetry) {
		this.sseRetry = sseRetry;
	}

	public WebSocketCloseCode getWebsocketCloseCode() {
		return this.websocketCloseCode;
	}

	public void setWebsocketCloseCode(WebSocketCloseCode websocketCloseCode) {
		this.websocketCloseCode = websocketCloseCode;
	}

	public @Nullable Duration getEndWindow() {
		return this.endWindow;
	}

	public void setEndWindow(@Nullable Duration endWindow) {
		this.endWindow = endWindow;
	}

	public int getEndRate() {
		return this.endRate;
	}

	public void setEndRate(int endRate) {
		this.endRate = endRate;
	}

	public EndAt getEndAt() {
		return this.endAt;
	}

	public void setEndAt(EndAt endAt) {
		this.endAt = endAt;
	}

	/** When open streams are ended. */
	public enum EndAt {

		/** At the first instant of a shutdown. */
		SHUTDOWN,

		/** When the drain delay ends. */
		DRAIN_END

	}

	/** The close code of the WebSocket sessions a shutdown ends. */
	public enum WebSocketCloseCode {

		/** 1001: the endpoint is going away. */
		GOING_AWAY(1001, "going away"),

		/** 1012: the service is restarting; the client should reconnect. */
		SERVICE_RESTART(1012, "service restart");

		private final int code;

		private final String label;

		WebSocketCloseCode(int code, String label) {
			this.code = code;
			this.label = label;
		}

		/** The code on the wire. */
		public int code() {
			return this.code;
		}

		/** How the log names it, such as {@code 1001 going away}. */
		@Override
		public String toString() {
			return this.code + " " + this.label;
		}

	}

}
