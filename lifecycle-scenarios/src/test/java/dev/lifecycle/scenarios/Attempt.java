package dev.lifecycle.scenarios;

/**
 * One request or call a client made around the signal: when it started and ended, in
 * milliseconds after the signal (negative before it), and how it ended: an HTTP status, a
 * gRPC status code, or {@code "io: …"} when the connection failed.
 */
record Attempt(String client, String what, long startedMs, long endedMs, String result) {

	boolean ok() {
		return this.result.equals("200") || this.result.equals("OK");
	}

	boolean serverError() {
		return this.result.matches("5\\d\\d");
	}

	@Override
	public String toString() {
		return this.client + " " + this.what + " [" + this.startedMs + ".." + this.endedMs + " ms] " + this.result;
	}

}
