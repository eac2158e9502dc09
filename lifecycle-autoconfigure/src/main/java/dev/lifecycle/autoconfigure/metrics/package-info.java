/**
 * Lifecycle's Micrometer metrics ({@code lifecycle_*}): component states, shutdowns by
 * reason and trigger, the last shutdown's duration and outcome. Loaded only with
 * Micrometer.
 */
@NullMarked
package dev.lifecycle.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
