/**
 * Connection drain on the reactive stack (Reactor Netty): {@code Connection: close} after
 * each response once a shutdown began and pipelined requests answered. Loaded only with
 * Spring WebFlux.
 */
@NullMarked
package dev.lifecycle.autoconfigure.web.reactive;

import org.jspecify.annotations.NullMarked;
