/**
 * Components: the registration of {@code @ManagedComponent}, {@code @ShutdownHandler} and
 * {@code @FinalAction} beans; the adoption of the context's other {@code Lifecycle} beans
 * and of its executors (their budget, their tasks after their turn) through the lifecycle
 * processor; and the coordinator that starts the engine with the context and runs its
 * shutdown when it closes.
 */
@NullMarked
package dev.lifecycle.autoconfigure.component;

import org.jspecify.annotations.NullMarked;
