package dev.lifecycle.autoconfigure.web.servlet;

import java.util.function.IntUnaryOperator;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Each servlet server's rule for when a write commits a response: the largest single
 * write the server buffers rather than sends at once. Jetty writes one larger than its
 * aggregation size straight through, committing the response; Tomcat buffers every write
 * up to its buffer's size.
 */
final class ServerBuffering {

	private ServerBuffering() {
	}

	/**
	 * The largest write the server serving this request buffers, given its buffer's size.
	 */
	static IntUnaryOperator largestBufferedWrite(HttpServletRequest request) {
		if (JettyServed.serves(request)) {
			try {
				Integer size = JettyRequests.aggregationSize(request);
				if (size != null) {
					return (buffer) -> Math.min(size, buffer);
				}
			}
			catch (RuntimeException | LinkageError ex) {
				// Another Jetty than the one compiled against: a quarter of the buffer,
				// its default.
				return (buffer) -> buffer / 4;
			}
		}
		return IntUnaryOperator.identity();
	}

}
