/**
 * The push of the shutdown's metrics to a Prometheus Pushgateway when the sequence
 * completes, and at the ceiling before the JVM is halted. Loaded only with the Prometheus
 * Pushgateway client.
 */
@NullMarked
package dev.lifecycle.autoconfigure.metrics.pushgateway;

import org.jspecify.annotations.NullMarked;
