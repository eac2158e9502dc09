package dev.lifecycle.sample.pipeline;

import java.util.Map;

import dev.lifecycle.sample.store.Aggregate;

/**
 * The pipeline's aggregates as of one processed offset.
 *
 * @param offset the last log offset included
 * @param checkpointOffset the offset of the last checkpoint written
 * @param state the pipeline's state
 * @param aggregates the aggregates per key (a copy)
 */
public record CountsSnapshot(long offset, long checkpointOffset, PipelineState state,
		Map<String, Aggregate> aggregates) {
}
