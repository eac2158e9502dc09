package dev.lifecycle.core;

/**
 * A thread at work for a component and what it does for it, as a budget or ceiling
 * overrun names it.
 *
 * @param thread the thread
 * @param role what it does, phrased to follow the thread's name ("runs its stop
 * callback")
 */
record BusyThread(Thread thread, String role) {
}
