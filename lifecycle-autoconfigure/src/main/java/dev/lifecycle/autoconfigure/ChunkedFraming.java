package dev.lifecycle.autoconfigure;

import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.util.ClassUtils;

/**
 * Keeps a response of unknown length chunked once it carries {@code Connection: close}. Given that
 * header, a servlet container (Tomcat, Jetty) ends such a response by closing the connection
 * instead: the body still arrives whole, but a client cannot tell a complete response from a cut
 * one, and some count it as an error. Trailer fields need chunked encoding, so asking for them (an
 * empty set) keeps it. Reactor Netty chunks such a response anyway.
 */
final class ChunkedFraming {

	private static final boolean SERVLET = ClassUtils.isPresent("jakarta.servlet.http.HttpServletResponse",
			ChunkedFraming.class.getClassLoader());

	private ChunkedFraming() {
	}

	/**
	 * Asks for chunked encoding if the response is a servlet response that is not committed yet.
	 * @param response a servlet response, or the native response of a reactive server
	 */
	static void keep(Object response) {
		if (SERVLET && response instanceof HttpServletResponse servlet) {
			try {
				servlet.setTrailerFields(Map::of);
			}
			catch (IllegalStateException ex) {
				// No chunked encoding on this connection (HTTP/1.0): the close delimits the response.
			}
		}
	}

}
