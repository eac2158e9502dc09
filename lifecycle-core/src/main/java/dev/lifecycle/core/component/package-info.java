/**
 * The engine's component model: one registered component's life as one state machine, its
 * handle, what is in flight for it, its health monitor, and the engine's threads and
 * clock. Internal: every public type here is {@link dev.lifecycle.core.Internal}, public
 * only for the engine's other packages. It depends on the API package
 * {@code dev.lifecycle.core} and on no other package of the engine.
 */
@NullMarked
package dev.lifecycle.core.component;

import org.jspecify.annotations.NullMarked;
