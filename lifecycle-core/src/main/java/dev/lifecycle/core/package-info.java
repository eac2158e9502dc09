/**
 * The Lifecycle engine: plain Java, no framework.
 * {@link dev.lifecycle.core.LifecycleManager} is the entry point; components hold a
 * {@link dev.lifecycle.core.ComponentHandle}; everything the engine does is told to
 * {@link dev.lifecycle.core.LifecycleListener}s. Nothing here is null unless marked
 * {@code @Nullable}.
 */
@NullMarked
package dev.lifecycle.core;

import org.jspecify.annotations.NullMarked;
