package dev.lifecycle.scenarios;

/**
 * What Lifecycle promises through a shutdown, as the scenario suite checks it from
 * outside the process: one row of the manual's support table each.
 */
enum Promise {

	READINESS_FIRST("Readiness turns 503 and gRPC health NOT_SERVING at the signal, while requests are still answered"),

	SERVED_THROUGH_DRAIN("HTTP/1.1 and HTTP/2 requests and gRPC calls are answered through the drain delay"),

	BACKGROUND_WORK("`@Async` tasks and `@Scheduled` ticks run through the drain delay"),

	LONG_REQUEST("A long request in flight at the drain delay's end is answered within its budget"),

	STREAMS_END_RETRYABLE("Server streams end with UNAVAILABLE (a status clients retry on) at the drain delay's end"),

	STREAMS_PACED("Open streams end one by one over the pacing's spread, each cleanly; server-sent events "
			+ "first get a `retry:` advice"),

	WEBSOCKETS_CLOSE_CODE("WebSocket sessions close, paced with the streams, with the chosen close code "
			+ "(`lifecycle.streams.websocket-close-code=service-restart`: 1012)"),

	STREAMS_RESUME_EXACT("Server-sent event streams resumed with `Last-Event-ID` on the next instance after "
			+ "their paced end lose no event and get none twice"),

	GOAWAY_FORM("An open HTTP/2 connection gets the two-phase GOAWAY: 2³¹−1 at the signal, then the last stream "
			+ "served, and a stream opened after the first is not served; the final one comes after a PING on "
			+ "Reactor Netty, at once on Jetty (no stream open) and on Tomcat once the client opens another stream"),

	NO_CLIENT_HOLDS(
			"A gRPC client that stops reading its stream, or ignores the GOAWAY and its PING, holds no shutdown"),

	PIPELINED_CLOSE("The last of HTTP/1.1 requests pipelined during the drain says `Connection: close`"),

	IN_PROCESS_CALLS("A component's calls to the in-process gRPC server from its `stop()` are answered"),

	EXECUTORS("Executor beans (of the application's own class, scheduled, the common pool) keep their type and "
			+ "hold no shutdown; work a `stop()` hands to the common pool finishes"),

	NO_FAILED_REQUESTS("No 5xx answer and no failed call that the drain should have prevented"),

	CUT_NAMED("Calls cut by the gRPC server's grace period make the report not clean and are named in it"),

	TRUE_RECORDS(
			"The exit code, the report (`clean`, `failedRequests`, outcomes) and the next start's summary are true");

	private final String description;

	Promise(String description) {
		this.description = description;
	}

	String description() {
		return this.description;
	}

}
