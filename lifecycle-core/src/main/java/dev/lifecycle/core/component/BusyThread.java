package dev.lifecycle.core.component;

import dev.lifecycle.core.Internal;

/**
 * A thread at work for a component and what it does for it, as a budget or ceiling
 * overrun names it.
 *
 * @param thread the thread
 * @param role what it does, phrased to follow the thread's name ("runs its stop
 * callback")
 */
@Internal
public record BusyThread(Thread thread, String role) {
}
