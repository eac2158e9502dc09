/**
 * Lifecycle's user-facing Spring API: {@link dev.lifecycle.spring.ManagedComponent},
 * {@link dev.lifecycle.spring.ShutdownHandler}, {@link dev.lifecycle.spring.FinalAction},
 * {@link dev.lifecycle.spring.LifecycleExit} and {@link dev.lifecycle.spring.LifecycleTestSupport}.
 */
package dev.lifecycle.spring;
