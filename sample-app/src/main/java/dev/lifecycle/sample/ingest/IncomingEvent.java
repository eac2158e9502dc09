package dev.lifecycle.sample.ingest;

/**
 * A validated {@code POST /events} body.
 *
 * @param id the client's event id (idempotency key)
 * @param key the aggregation key
 * @param value the value
 */
public record IncomingEvent(String id, String key, long value) {
}
