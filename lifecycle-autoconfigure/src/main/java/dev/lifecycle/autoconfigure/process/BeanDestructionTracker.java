package dev.lifecycle.autoconfigure.process;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.lifecycle.core.Internal;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;

/**
 * Remembers which bean each thread began destroying last, so that when a {@code @PreDestroy}
 * method, a {@code DisposableBean} or a destroy method holds the process past the global ceiling,
 * the log can name the bean and not only show a stack. It runs before every other destruction
 * callback, {@code @PreDestroy} included.
 */
@Internal
public final class BeanDestructionTracker implements DestructionAwareBeanPostProcessor, PriorityOrdered {

	private final Map<Thread, String> destroying = new ConcurrentHashMap<>();

	@Override
	public void postProcessBeforeDestruction(Object bean, String beanName) throws BeansException {
		this.destroying.put(Thread.currentThread(), beanName);
	}

	@Override
	public boolean requiresDestruction(Object bean) {
		return true;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	/** The bean the thread began destroying last, if it ever destroyed one. */
	Optional<String> lastDestroyedBy(Thread thread) {
		return Optional.ofNullable(this.destroying.get(thread));
	}

}
