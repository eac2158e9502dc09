package dev.lifecycle.sample.ingest;

import java.math.BigInteger;
import java.util.Map;

import dev.lifecycle.sample.pipeline.CountsPage;
import dev.lifecycle.sample.pipeline.KeyCount;
import dev.lifecycle.sample.pipeline.Pipeline;
import dev.lifecycle.sample.store.Aggregate;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /counts} and {@code GET /counts/{key}}: the pipeline's aggregates (sum and
 * count per key) as of the last processed offset, read from memory, with that offset, a
 * page at a time. Events acknowledged but not yet consumed by the pipeline are not in
 * them yet: compare {@code offset} with the offset of the acknowledgement.
 */
@RestController
public class CountsController {

	/** Keys per page when the client does not say. */
	static final int DEFAULT_LIMIT = 1000;

	/** The most keys per page. */
	static final int MAX_LIMIT = 10_000;

	private final Pipeline pipeline;

	public CountsController(Pipeline pipeline) {
		this.pipeline = pipeline;
	}

	/**
	 * Keys in key order, a page at a time, optionally only those starting with
	 * {@code prefix}. A page holds at most {@code limit} keys ({@value #DEFAULT_LIMIT} by
	 * default, {@value #MAX_LIMIT} at most), so the answer stays small whatever the
	 * number of keys; {@code next} is the {@code after} of the next page ({@code null} on
	 * the last one).
	 * @param prefix keep only keys with this prefix (optional)
	 * @param after start after this key (optional: from the first key)
	 * @param limit the most keys in the answer
	 * @return 200 {@code {"offset", "checkpointOffset", "pipeline", "keys": {key: {"sum",
	 * "count"}}, "next"}}, or 400 for a limit out of range
	 */
	@GetMapping("/counts")
	public ResponseEntity<Object> counts(@RequestParam(name = "prefix", required = false) String prefix,
			@RequestParam(name = "after", required = false) String after,
			@RequestParam(name = "limit", required = false) String limit) {
		int size = DEFAULT_LIMIT;
		if (limit != null) {
			try {
				size = Integer.parseInt(limit);
			}
			catch (NumberFormatException ex) {
				size = -1;
			}
			if (size < 1 || size > MAX_LIMIT) {
				return ResponseEntity.badRequest()
					.body(new EventController.ErrorBody("invalid_limit",
							"limit must be an integer between 1 and " + MAX_LIMIT + ", not '" + limit + "'"));
			}
		}
		CountsPage page = this.pipeline.page((prefix != null) ? prefix : "", after, size);
		return ResponseEntity
			.ok(new Counts(page.offset(), page.checkpointOffset(), page.state().name(), page.keys(), page.next()));
	}

	/**
	 * One key.
	 * @param key the key
	 * @return 200 {@code {"key", "sum", "count", "offset"}}, or 404 if no processed event
	 * has this key
	 */
	@GetMapping("/counts/{key}")
	public ResponseEntity<Object> count(@PathVariable("key") String key) {
		KeyCount count = this.pipeline.count(key);
		if (count.aggregate().isEmpty()) {
			return ResponseEntity.status(HttpStatus.NOT_FOUND)
				.body(new UnknownKey("unknown_key",
						"no event with key '" + key + "' has been processed up to offset " + count.offset(), key,
						count.offset()));
		}
		Aggregate aggregate = count.aggregate().get();
		return ResponseEntity.ok(new KeyCounts(key, aggregate.sum(), aggregate.count(), count.offset()));
	}

	/**
	 * All counts.
	 *
	 * @param offset the last log offset included
	 * @param checkpointOffset the offset of the last durable checkpoint
	 * @param pipeline the pipeline's state
	 * @param keys sum and count per key, sorted by key
	 * @param next the key to pass as {@code after} for the next page, or null on the last
	 * page
	 */
	public record Counts(long offset, long checkpointOffset, String pipeline, Map<String, Aggregate> keys,
			String next) {
	}

	/**
	 * One key's counts.
	 *
	 * @param key the key
	 * @param sum the sum of its values
	 * @param count the number of its events
	 * @param offset the last log offset included
	 */
	public record KeyCounts(String key, BigInteger sum, long count, long offset) {
	}

	/**
	 * The 404 body.
	 *
	 * @param error {@code unknown_key}
	 * @param reason a sentence
	 * @param key the key asked for
	 * @param offset the offset the answer is at
	 */
	public record UnknownKey(String error, String reason, String key, long offset) {
	}

}
