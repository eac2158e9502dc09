package dev.lifecycle.autoconfigure.web.servlet;

import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.util.ClassUtils;

/**
 * Keeps a response of unknown length chunked once it carries {@code Connection: close}. Given that
 * header, a servlet container (Tomcat, Jetty) ends such a response by closing the connection
 * instead: the body still arrives whole, but a client cannot tell a complete response from a cut
 * one, and some count it as an error. Trailer fields need chunked encoding, so asking for them (an
 * empty set) keeps it. Reactor Netty chunks such a response anyway.
 *
 * <p>Only a response with a body of unknown length is touched, decided when its status and
 * headers are final: a response with a {@code Content-Length} keeps it, and one that has no body
 * (a HEAD request, 1xx, 204, 304) must not announce chunked encoding, which some clients would
 * then wait to read.
 *
 * <p>Not API: public only for the reactive stack on a servlet container.
 */
public final class ChunkedFraming {

	private static final boolean SERVLET = ClassUtils.isPresent("jakarta.servlet.http.HttpServletResponse",
			ChunkedFraming.class.getClassLoader());

	private ChunkedFraming() {
	}

	/**
	 * Asks for chunked encoding if the response has a body of unknown length and is a servlet
	 * response that is not committed yet.
	 * @param response a servlet response, or the native response of a reactive server
	 * @param head whether the request is a HEAD request
	 * @param status the response's status
	 * @param lengthKnown whether the response has a {@code Content-Length}
	 */
	public static void keep(Object response, boolean head, int status, boolean lengthKnown) {
		boolean body = !head && status >= 200 && status != 204 && status != 304;
		if (body && !lengthKnown && SERVLET && response instanceof HttpServletResponse servlet) {
			try {
				servlet.setTrailerFields(Map::of);
			}
			catch (IllegalStateException ex) {
				// Committed already, or no chunked encoding on this connection (HTTP/1.0): the close
				// delimits the response.
			}
		}
	}

}
