/**
 * The engine's shutdown sequence: its steps in order, the drains by tier and phase, the
 * ceiling's cuts and diagnostics, the verdict on the report, and the listeners it tells.
 * Internal: every public type here is {@link dev.lifecycle.core.Internal}, public only
 * for the engine's entry point. It depends on the API package {@code dev.lifecycle.core}
 * and on the component floor {@code dev.lifecycle.core.component}, nothing above.
 */
@NullMarked
package dev.lifecycle.core.sequence;

import org.jspecify.annotations.NullMarked;
