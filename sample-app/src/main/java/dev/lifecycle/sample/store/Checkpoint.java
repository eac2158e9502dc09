package dev.lifecycle.sample.store;

import java.util.Map;

/**
 * A checkpoint as stored: the aggregates of every key as of {@code offset}, saved in one
 * transaction.
 *
 * @param offset the last log offset whose event is included in the aggregates (0 for
 * none)
 * @param aggregates the aggregates per key
 * @param updatedAt when it was written (ISO-8601), or {@code null} if never
 */
public record Checkpoint(long offset, Map<String, Aggregate> aggregates, String updatedAt) {

	/** The checkpoint of an empty database. */
	public static Checkpoint empty() {
		return new Checkpoint(0, Map.of(), null);
	}

}
