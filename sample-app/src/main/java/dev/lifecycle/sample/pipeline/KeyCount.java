package dev.lifecycle.sample.pipeline;

import java.util.Optional;

import dev.lifecycle.sample.store.Aggregate;

/**
 * One key's aggregate.
 *
 * @param key the key
 * @param aggregate its aggregate, empty if no event has this key
 * @param offset the offset the aggregate is at
 */
public record KeyCount(String key, Optional<Aggregate> aggregate, long offset) {
}
