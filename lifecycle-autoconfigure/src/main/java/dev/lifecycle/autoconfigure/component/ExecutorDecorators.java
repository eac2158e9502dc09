package dev.lifecycle.autoconfigure.component;

import java.lang.reflect.Field;
import java.util.List;

import dev.lifecycle.autoconfigure.InternalHooks;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.scheduling.concurrent.ConcurrentTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.util.ReflectionUtils;

/**
 * The task decorator an application gave one of Spring's executors (a context-propagating
 * one, say), which Lifecycle's {@link TaskGate} must keep applying: the executors set it
 * but offer no getter, so it is read from their private field, a hook resolved once, when
 * the executors are first prepared for adoption ({@link #HOOK}). When it misses, no gate
 * replaces a decorator it cannot see.
 */
final class ExecutorDecorators {

	static final InternalHooks.Point HOOK = new InternalHooks.Point("spring.task-decorator",
			"the taskDecorator field of Spring's SimpleAsyncTaskExecutor, ThreadPoolTaskExecutor and "
					+ "ConcurrentTaskExecutor (private fields)",
			"Lifecycle's task gate on adopted Spring executors",
			"Adopted Spring executors keep their own task decorator and have no gate: the tasks a "
					+ "SimpleAsyncTaskExecutor or ConcurrentTaskExecutor accepted are not waited for, and a task "
					+ "submitted after an executor's turn is rejected rather than run on its caller. Use the "
					+ "Spring Framework version Spring Boot manages (7.0).");

	/** The field of each executor type; {@code null} when the hook missed. */
	private final @Nullable List<Field> fields;

	private ExecutorDecorators(@Nullable List<Field> fields) {
		this.fields = fields;
	}

	/** Resolves the hook into Spring's executors. */
	static ExecutorDecorators resolve(InternalHooks hooks) {
		return resolve(hooks,
				List.of(SimpleAsyncTaskExecutor.class, ThreadPoolTaskExecutor.class, ConcurrentTaskExecutor.class));
	}

	/**
	 * Resolves the hook against the given types: Spring's own, or in a test one that
	 * lacks the field.
	 */
	static ExecutorDecorators resolve(InternalHooks hooks, List<Class<?>> executors) {
		return new ExecutorDecorators(hooks.resolve(HOOK, () -> {
			Field[] fields = new Field[executors.size()];
			for (int i = 0; i < fields.length; i++) {
				fields[i] = InternalHooks.field(executors.get(i), "taskDecorator", TaskDecorator.class);
			}
			return List.of(fields);
		}));
	}

	/**
	 * Whether the executors' decorators can be read, so that a gate may take their place.
	 */
	boolean readable() {
		return this.fields != null;
	}

	/**
	 * The decorator the executor has now, or {@code null} when it has none or is of
	 * another type.
	 */
	@Nullable TaskDecorator current(Object executor) {
		List<Field> fields = this.fields;
		if (fields != null) {
			for (Field field : fields) {
				if (field.getDeclaringClass().isInstance(executor)) {
					return (TaskDecorator) ReflectionUtils.getField(field, executor);
				}
			}
		}
		return null;
	}

	/** The fields read by reflection, for a native image. */
	static final class Hints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			for (Class<?> executor : List.of(SimpleAsyncTaskExecutor.class, ThreadPoolTaskExecutor.class,
					ConcurrentTaskExecutor.class)) {
				hints.reflection().registerType(executor, (type) -> type.withField("taskDecorator"));
			}
		}

	}

}
