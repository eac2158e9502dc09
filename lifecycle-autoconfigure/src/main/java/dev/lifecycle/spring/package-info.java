/**
 * Lifecycle's user-facing Spring API: {@link dev.lifecycle.spring.ManagedComponent},
 * {@link dev.lifecycle.spring.ShutdownHandler}, {@link dev.lifecycle.spring.FinalAction},
 * {@link dev.lifecycle.spring.LifecycleExit} and
 * {@link dev.lifecycle.spring.ReactiveCriticalSections}. Test support lives in the
 * {@code lifecycle-test} artifact. Nothing here is null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.lifecycle.spring;

import org.jspecify.annotations.NullMarked;
