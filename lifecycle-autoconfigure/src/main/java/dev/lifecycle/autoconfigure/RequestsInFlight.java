package dev.lifecycle.autoconfigure;

import java.util.List;

import dev.lifecycle.core.Internal;

/**
 * The application's requests its web server is serving, as its web stack's drain tracks
 * them. The web server's stop cuts every request still in flight, whatever the server's
 * shutdown mode ({@code server.shutdown=immediate} stops it with requests in flight), so
 * the stop takes them first: each is then a failed request of the report, counted once,
 * and named.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
@Internal
public interface RequestsInFlight {

	/**
	 * Takes the application's requests still in flight as cut by the web server's stop
	 * that comes next: each is counted as a failed request, and is not counted again when
	 * it then fails.
	 * @return each cut request as its method and path, e.g. {@code GET /orders}; empty
	 * when none was in flight
	 */
	List<String> cutByTheStop();

}
