package dev.lifecycle.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * What the web server says on an open HTTP/2 connection (h2c, prior knowledge) as the
 * shutdown begins, read frame by frame: the connection carries one request before the
 * signal; after the first GOAWAY, once a round trip has surely passed, it opens one more
 * stream, the one Tomcat waits for before its final GOAWAY.
 */
final class GoAwayForm implements AutoCloseable {

	/** Longer than a round trip on this machine, loaded or not. */
	private static final Duration AFTER_THE_FIRST = Duration.ofMillis(500);

	private final RawH2Connection connection;

	/** How the request before the signal ended. */
	final String before;

	/** The id of its stream. */
	private final int beforeStreamId;

	/**
	 * How the first stream opened after the first GOAWAY ended (or one that was served),
	 * and when it was opened.
	 */
	volatile String after = "not opened";

	volatile long afterMs = -1;

	GoAwayForm(int port, LongSupplier sinceSignal) throws InterruptedException {
		this.connection = RawH2Connection.answeringPings(port, sinceSignal);
		this.before = this.connection.get("/hello", 30);
		this.beforeStreamId = this.connection.lastStreamId;
	}

	/**
	 * Waits for the first GOAWAY; then, once a round trip has surely passed, opens a
	 * stream, and again each half second until the final GOAWAY came (a round trip Tomcat
	 * measured on a loaded machine may be longer); each within the bound. Where the final
	 * GOAWAY came first, Netty's codec does not send the stream ({@code not sent}).
	 */
	void watch(Duration bound, LongSupplier sinceSignal) {
		try {
			long first = this.connection.goAway.get(bound.toMillis(), TimeUnit.MILLISECONDS);
			do {
				Thread.sleep(AFTER_THE_FIRST.toMillis());
				long opened = sinceSignal.getAsLong();
				String end = this.connection.get("/hello", 1);
				if (this.afterMs < 0 || end.equals("200")) {
					this.afterMs = opened;
					this.after = end;
				}
			}
			while (goAways().size() < 2 && sinceSignal.getAsLong() < first + bound.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ex) {
			// Judged by the check, from the frames that came.
		}
	}

	private List<RawH2Connection.Frame> goAways() {
		return this.connection.frames.stream().filter(RawH2Connection.Frame::goAway).toList();
	}

	/**
	 * What differs from the two-phase form: a first GOAWAY of 2^31-1 and {@code NO_ERROR}
	 * within the drain delay, a final one naming the stream served before it, and the
	 * stream opened after the first not served; each server's own way with the final one:
	 * after a PING on Reactor Netty, at once on Jetty, once that stream comes on Tomcat.
	 */
	List<String> problems(Stack stack) {
		List<String> problems = new ArrayList<>();
		List<RawH2Connection.Frame> frames = List.copyOf(this.connection.frames);
		String seen = "frames after the signal: " + this.connection.describe();
		if (!this.before.equals("200")) {
			problems.add("the request before the signal ended " + this.before);
		}
		List<RawH2Connection.Frame> goAways = frames.stream().filter(RawH2Connection.Frame::goAway).toList();
		if (goAways.size() < 2) {
			problems.add(goAways.size() + " GOAWAY, not two; " + seen);
			return problems;
		}
		RawH2Connection.Frame first = goAways.get(0);
		RawH2Connection.Frame last = goAways.get(1);
		if (first.lastStreamId() != Integer.MAX_VALUE || first.errorCode() != 0 || first.atMs() < 0
				|| first.atMs() >= ScenarioRun.DRAIN_DELAY.toMillis()) {
			problems.add("the first GOAWAY is not 2^31-1 with NO_ERROR within the drain delay: " + seen);
		}
		if (last.lastStreamId() != this.beforeStreamId || last.errorCode() != 0) {
			problems.add("the final GOAWAY does not name the stream served (" + this.beforeStreamId
					+ ") with NO_ERROR: " + seen);
		}
		boolean pingBetween = frames.subList(frames.indexOf(first), frames.indexOf(last))
			.stream()
			.anyMatch((frame) -> frame.type().equals("PING"));
		if (stack == Stack.REACTOR_NETTY && !pingBetween) {
			problems.add("no PING between the GOAWAYs: " + seen);
		}
		// Jetty's final GOAWAY follows its first at once on a connection with no stream
		// open; Tomcat's waits for a new stream a round trip after its first.
		if (stack == Stack.JETTY && this.afterMs >= 0 && last.atMs() >= this.afterMs) {
			problems.add("Jetty's final GOAWAY came only after the stream opened at " + this.afterMs + " ms: " + seen);
		}
		if (stack == Stack.TOMCAT && last.atMs() < this.afterMs) {
			problems.add("Tomcat's final GOAWAY came before the stream opened at " + this.afterMs + " ms: " + seen);
		}
		if (this.after.equals("200")) {
			problems.add("the stream opened " + this.afterMs + " ms after the signal, after the first GOAWAY, was "
					+ "served: " + seen);
		}
		return problems;
	}

	/** The frames and the requests' ends, for the run's output. */
	String describe() {
		return "before (stream " + this.beforeStreamId + ") " + this.before + ", after (" + this.afterMs + " ms) "
				+ this.after + ", " + this.connection.describe();
	}

	@Override
	public void close() {
		this.connection.close();
	}

}
