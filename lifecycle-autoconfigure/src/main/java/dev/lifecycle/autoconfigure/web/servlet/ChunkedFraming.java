package dev.lifecycle.autoconfigure.web.servlet;

import java.util.Map;

import dev.lifecycle.core.Internal;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.util.ClassUtils;

/**
 * Keeps a response of unknown length chunked once it carries {@code Connection: close}:
 * Tomcat and Jetty would otherwise end it by closing the connection, a body a client
 * cannot tell from a cut one. Asking for trailer fields (an empty set) keeps chunked
 * encoding. Only a body of unknown length is touched, decided when status and headers are
 * final: a {@code Content-Length} is kept, and a response without a body (HEAD, 1xx, 204,
 * 304) never announces chunked encoding, which some clients would wait to read.
 */
@Internal
public final class ChunkedFraming {

	private static final boolean SERVLET = ClassUtils.isPresent("jakarta.servlet.http.HttpServletResponse",
			ChunkedFraming.class.getClassLoader());

	private ChunkedFraming() {
	}

	/**
	 * Asks for chunked encoding if the response has a body of unknown length and is a
	 * servlet response that is not committed yet.
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
				// Committed already, or no chunked encoding on this connection
				// (HTTP/1.0): the close delimits the response.
			}
		}
	}

}
