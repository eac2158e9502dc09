package dev.lifecycle.spring;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentHandle.CriticalSection;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Critical sections for reactive code: what {@link ComponentHandle#critical()} in a
 * try-with-resources block is to blocking code. The section opens when the publisher is
 * subscribed and closes exactly once when it completes, fails or is cancelled, because a
 * reactive method returns before its work runs: the drain waits for the work in flight,
 * never for abandoned work. The recipe: {@code docs/connection-drain.md}, reactive
 * critical sections.
 */
public final class ReactiveCriticalSections {

	private ReactiveCriticalSections() {
	}

	/**
	 * Holds the component open while {@code work} runs.
	 * @param handle the component's handle
	 * @param work the work, subscribed once per subscription of the result
	 * @param <T> the value type
	 * @return the work, inside a critical section
	 */
	public static <T> Mono<T> critical(ComponentHandle handle, Mono<T> work) {
		return Mono.using(handle::critical, (section) -> work, CriticalSection::close);
	}

	/**
	 * Holds the component open while {@code work} emits.
	 * @param handle the component's handle
	 * @param work the work, subscribed once per subscription of the result
	 * @param <T> the element type
	 * @return the work, inside a critical section
	 */
	public static <T> Flux<T> critical(ComponentHandle handle, Flux<T> work) {
		return Flux.using(handle::critical, (section) -> work, CriticalSection::close);
	}

}
