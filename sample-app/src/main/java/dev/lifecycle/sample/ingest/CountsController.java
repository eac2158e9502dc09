package dev.lifecycle.sample.ingest;

import java.util.Map;
import java.util.TreeMap;

import dev.lifecycle.sample.pipeline.CountsSnapshot;
import dev.lifecycle.sample.pipeline.Pipeline;
import dev.lifecycle.sample.store.Aggregate;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /counts} and {@code GET /counts/{key}}: the pipeline's aggregates (sum and count per
 * key) as of the last processed offset, read from memory, with that offset. Events acknowledged but
 * not yet consumed by the pipeline are not in them yet: compare {@code offset} with the offset of the
 * acknowledgement.
 */
@RestController
public class CountsController {

	private final Pipeline pipeline;

	public CountsController(Pipeline pipeline) {
		this.pipeline = pipeline;
	}

	/**
	 * All keys, optionally only those starting with {@code prefix}.
	 * @param prefix keep only keys with this prefix (optional)
	 * @return {@code {"offset", "checkpointOffset", "pipeline", "keys": {key: {"sum", "count"}}}}
	 */
	@GetMapping("/counts")
	public Counts counts(@RequestParam(name = "prefix", required = false) String prefix) {
		CountsSnapshot snapshot = this.pipeline.snapshot();
		Map<String, Aggregate> keys = new TreeMap<>();
		snapshot.aggregates().forEach((key, aggregate) -> {
			if (prefix == null || key.startsWith(prefix)) {
				keys.put(key, aggregate);
			}
		});
		return new Counts(snapshot.offset(), snapshot.checkpointOffset(), snapshot.state().name(), keys);
	}

	/**
	 * One key.
	 * @param key the key
	 * @return 200 {@code {"key", "sum", "count", "offset"}}, or 404 if no processed event has this key
	 */
	@GetMapping("/counts/{key}")
	public ResponseEntity<Object> count(@PathVariable("key") String key) {
		Pipeline.KeyCount count = this.pipeline.count(key);
		if (count.aggregate().isEmpty()) {
			return ResponseEntity.status(HttpStatus.NOT_FOUND)
				.body(new UnknownKey("unknown_key", "no event with key '" + key + "' has been processed up to offset "
						+ count.offset(), key, count.offset()));
		}
		Aggregate aggregate = count.aggregate().get();
		return ResponseEntity.ok(new KeyCounts(key, aggregate.sum(), aggregate.count(), count.offset()));
	}

	/**
	 * All counts.
	 * @param offset the last log offset included
	 * @param checkpointOffset the offset of the last durable checkpoint
	 * @param pipeline the pipeline's state
	 * @param keys sum and count per key, sorted by key
	 */
	public record Counts(long offset, long checkpointOffset, String pipeline, Map<String, Aggregate> keys) {
	}

	/**
	 * One key's counts.
	 * @param key the key
	 * @param sum the sum of its values
	 * @param count the number of its events
	 * @param offset the last log offset included
	 */
	public record KeyCounts(String key, long sum, long count, long offset) {
	}

	/**
	 * The 404 body.
	 * @param error {@code unknown_key}
	 * @param reason a sentence
	 * @param key the key asked for
	 * @param offset the offset the answer is at
	 */
	public record UnknownKey(String error, String reason, String key, long offset) {
	}

}
