package dev.lifecycle.autoconfigure.component;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * An adopted {@link ExecutorService} bean of a JDK kind that offers no rejection policy
 * (a virtual-thread-per-task executor, a single-thread executor): a task it rejects
 * because it was shut down at its turn runs for its caller ({@link LateTask}), as a
 * thread pool's does, rather than failing the caller. Only {@code execute},
 * {@code submit} and {@code invoke*} run on the caller; a scheduled task is still
 * rejected, since running it at once would ignore its delay. Applied only to beans of the
 * JDK's own non-public classes, which no application code can name, so the decorator
 * changes no bean's injectable type; an application's own class, public or not, is never
 * replaced.
 */
final class CallerRunsAfterShutdown implements InvocationHandler {

	private final ExecutorService delegate;

	private CallerRunsAfterShutdown(ExecutorService delegate) {
		this.delegate = delegate;
	}

	/**
	 * Whether a bean is an executor service this decorator is for: not a thread pool (its
	 * rejection policy does the same) and of a non-public class of the JDK's own modules,
	 * which no injection point can name.
	 */
	static boolean appliesTo(Object bean) {
		Class<?> type = bean.getClass();
		return bean instanceof ExecutorService && !(bean instanceof ThreadPoolExecutor)
				&& !Modifier.isPublic(type.getModifiers()) && isJdks(type);
	}

	/**
	 * Whether an executor service's late tasks are left to its own class: it is no thread
	 * pool and caller-runs could only be given by a proxy that would change its type.
	 */
	static boolean leftToItsClass(Object bean) {
		return bean instanceof ExecutorService && !(bean instanceof ThreadPoolExecutor) && !appliesTo(bean)
				&& !isJdks(bean.getClass());
	}

	private static boolean isJdks(Class<?> type) {
		Module module = type.getModule();
		return module.isNamed() && module.getName().startsWith("java.");
	}

	/** The bean with every interface it implements, decorated. */
	static Object decorate(ExecutorService bean) {
		Class<?>[] interfaces = ClassUtils.getAllInterfacesForClass(bean.getClass(), bean.getClass().getClassLoader());
		return Proxy.newProxyInstance(bean.getClass().getClassLoader(), interfaces, new CallerRunsAfterShutdown(bean));
	}

	@Override
	public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args) throws Throwable {
		switch (method.getName()) {
			case "equals":
				return args != null && args.length == 1 && proxy == args[0];
			case "hashCode":
				return System.identityHashCode(proxy);
			case "toString":
				return this.delegate.toString();
			default:
				break;
		}
		try {
			return method.invoke(this.delegate, args);
		}
		catch (InvocationTargetException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof RejectedExecutionException && this.delegate.isShutdown() && args != null) {
				return runOnCaller(method.getName(), args, (RejectedExecutionException) cause);
			}
			throw cause;
		}
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private @Nullable Object runOnCaller(String method, Object[] args, RejectedExecutionException rejected)
			throws Exception {
		switch (method) {
			case "execute":
				LateTask.run((Runnable) args[0]);
				return null;
			case "submit": {
				FutureTask<?> task = (args[0] instanceof Callable<?> callable) ? new FutureTask<>(callable)
						: new FutureTask<>((Runnable) args[0], (args.length > 1) ? args[1] : null);
				LateTask.run(task);
				return task;
			}
			case "invokeAll": {
				List<Future<?>> futures = new ArrayList<>();
				for (Callable<?> callable : (Collection<Callable<?>>) args[0]) {
					FutureTask<?> task = new FutureTask<>(callable);
					LateTask.run(task);
					futures.add(task);
				}
				return futures;
			}
			case "invokeAny": {
				ExecutionException last = null;
				for (Callable<?> callable : (Collection<Callable<?>>) args[0]) {
					FutureTask<?> task = new FutureTask<>(callable);
					LateTask.run(task);
					try {
						return task.get();
					}
					catch (ExecutionException ex) {
						last = ex;
					}
				}
				throw (last != null) ? last : new IllegalArgumentException("no tasks");
			}
			default:
				throw rejected;
		}
	}

}
