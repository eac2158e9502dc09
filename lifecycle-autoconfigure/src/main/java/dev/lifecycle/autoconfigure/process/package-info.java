/**
 * The process around the engine: the signal trap (from the first instant of start-up),
 * the one place that decides the exit code and who ends the JVM, and the watchdog that
 * halts it when the global ceiling is passed.
 */
@NullMarked
package dev.lifecycle.autoconfigure.process;

import org.jspecify.annotations.NullMarked;
