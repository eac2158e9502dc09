package dev.lifecycle.sample.store;

/**
 * One entry of the durable event log.
 *
 * @param offset its position in the log ({@code event_log.offset}), strictly increasing
 * in commit order
 * @param id the client's event id, unique in the log
 * @param key the aggregation key
 * @param value the value added to the key's sum
 */
public record LoggedEvent(long offset, String id, String key, long value) {
}
