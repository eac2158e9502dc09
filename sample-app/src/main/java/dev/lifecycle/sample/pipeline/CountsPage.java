package dev.lifecycle.sample.pipeline;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableMap;

import dev.lifecycle.sample.store.Aggregate;

/**
 * A page of keys.
 *
 * @param offset the last log offset included
 * @param checkpointOffset the offset of the last checkpoint written
 * @param state the pipeline's state
 * @param keys the aggregates of the page's keys, in key order
 * @param next the key to continue after, or null if this is the last page
 */
public record CountsPage(long offset, long checkpointOffset, PipelineState state, Map<String, Aggregate> keys,
		String next) {

	/**
	 * The page that starts at {@code from}: its keys that start with {@code prefix}, at
	 * most {@code limit} of them.
	 */
	static CountsPage of(NavigableMap<String, Aggregate> from, String prefix, int limit, long offset,
			long checkpointOffset, PipelineState state) {
		Map<String, Aggregate> keys = new LinkedHashMap<>();
		String last = null;
		String next = null;
		for (Map.Entry<String, Aggregate> entry : from.entrySet()) {
			if (!entry.getKey().startsWith(prefix)) {
				break;
			}
			if (keys.size() == limit) {
				next = last;
				break;
			}
			keys.put(entry.getKey(), entry.getValue());
			last = entry.getKey();
		}
		return new CountsPage(offset, checkpointOffset, state, keys, next);
	}

}
