package dev.lifecycle.autoconfigure.process;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.core.Internal;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;

/**
 * Remembers which bean each thread began destroying last, so that when a
 * {@code @PreDestroy} method, a {@code DisposableBean} or a destroy method holds the
 * process past the global ceiling, the log can name the bean and not only show a stack.
 * It runs before every other destruction callback, {@code @PreDestroy} included. A thread
 * is known to be still inside a destruction by the frame of Spring's package-private
 * {@code DisposableBeanAdapter} on its stack: a hook resolved once, when this tracker is
 * created ({@link #HOOK}).
 */
@Internal
public final class BeanDestructionTracker implements DestructionAwareBeanPostProcessor, PriorityOrdered {

	static final InternalHooks.Point HOOK = new InternalHooks.Point("spring.destroy-frame",
			"Spring's org.springframework.beans.factory.support.DisposableBeanAdapter (package-private class), "
					+ "looked for in the stacks of the threads still at work at the ceiling",
			"naming the bean being destroyed in the ceiling's diagnostics",
			"The ceiling's diagnostics show the stacks of the threads destroying beans without naming the "
					+ "beans. Use the Spring Framework version Spring Boot manages (7.0).");

	private static final String DESTROY_FRAME = "org.springframework.beans.factory.support.DisposableBeanAdapter";

	private final Map<Thread, String> destroying = new ConcurrentHashMap<>();

	/**
	 * The class whose frame says a thread is destroying a bean; {@code null} when the
	 * hook missed.
	 */
	private final @Nullable String destroyFrame;

	/** A tracker whose hook is recorded nowhere. */
	public BeanDestructionTracker() {
		this(new InternalHooks());
	}

	BeanDestructionTracker(InternalHooks hooks) {
		Class<?> adapter = hooks.resolve(HOOK,
				() -> Class.forName(DESTROY_FRAME, false, BeanDestructionTracker.class.getClassLoader()));
		this.destroyFrame = (adapter != null) ? adapter.getName() : null;
	}

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

	/** Whether a frame is one of Spring's destruction of a bean. */
	boolean isDestroyFrame(StackTraceElement frame) {
		return this.destroyFrame != null && frame.getClassName().startsWith(this.destroyFrame);
	}

	/** The bean the thread began destroying last, if it ever destroyed one. */
	Optional<String> lastDestroyedBy(Thread thread) {
		return Optional.ofNullable(this.destroying.get(thread));
	}

	/** The class looked up by name, for a native image. */
	static final class Hints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			hints.reflection().registerType(TypeReference.of(DESTROY_FRAME));
		}

	}

}
