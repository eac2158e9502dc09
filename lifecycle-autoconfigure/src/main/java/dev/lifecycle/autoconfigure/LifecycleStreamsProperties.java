package dev.lifecycle.autoconfigure;

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

}
