package dev.lifecycle.autoconfigure.component;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import dev.lifecycle.autoconfigure.OptionErrors;
import dev.lifecycle.autoconfigure.InvalidLifecycleConfigurationException;
import dev.lifecycle.core.InvalidOptionException;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.spring.FinalAction;
import dev.lifecycle.spring.ShutdownHandler;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.Order;
import org.springframework.core.annotation.OrderUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * The shutdown handlers and final actions of the singletons: {@link ShutdownHandler} and
 * {@link FinalAction} methods, and beans implementing the core
 * {@link dev.lifecycle.core.ShutdownTask}, collected as the beans initialise and handed
 * to the engine when it starts, handlers sorted by {@link Order @Order} then creation
 * order, final actions in creation order (the engine runs them in reverse). A malformed
 * method fails the start with the setting to fix.
 */
final class ShutdownMethods {

	private static final Log logger = LogFactory.getLog(ShutdownMethods.class);

	/** The timeout of a bean implementing the core shutdown handler interface. */
	static final Duration DEFAULT_HANDLER_TIMEOUT = Duration.ofSeconds(30);

	private static final List<Class<? extends java.lang.annotation.Annotation>> METHOD_ANNOTATIONS = List
		.of(ShutdownHandler.class, FinalAction.class);

	private final UnaryOperator<String> placeholders;

	private final Set<Class<?>> classesWithoutMethods = ConcurrentHashMap.newKeySet();

	private final List<Handler> handlers = new ArrayList<>();

	private final List<Action> finalActions = new ArrayList<>();

	private final AtomicInteger sequence = new AtomicInteger();

	/** Set once the handlers are handed to the engine: later ones can no longer run. */
	private volatile boolean registered;

	/**
	 * @param placeholders resolves the placeholders of a handler's timeout
	 */
	ShutdownMethods(UnaryOperator<String> placeholders) {
		this.placeholders = placeholders;
	}

	/**
	 * Whether a class declares {@link ShutdownHandler} or {@link FinalAction} methods.
	 */
	static boolean declaredBy(Class<?> type) {
		return AnnotationUtils.isCandidateClass(type, METHOD_ANNOTATIONS) && !MethodIntrospector
			.selectMethods(type,
					(MethodIntrospector.MetadataLookup<Boolean>) (method) -> METHOD_ANNOTATIONS.stream()
						.anyMatch((annotation) -> AnnotatedElementUtils.hasAnnotation(method, annotation))
								? Boolean.TRUE : null)
			.isEmpty();
	}

	void collect(Object bean, String beanName) {
		Class<?> type = AopUtils.getTargetClass(bean);
		if (bean instanceof dev.lifecycle.core.ShutdownTask handler) {
			addHandler(new Handler(beanName, DEFAULT_HANDLER_TIMEOUT, handler, beanOrder(bean, type),
					this.sequence.incrementAndGet(), "the shutdown handler bean '" + beanName + "'"));
		}
		if (this.classesWithoutMethods.contains(type) || !AnnotationUtils.isCandidateClass(type, METHOD_ANNOTATIONS)) {
			return;
		}
		Map<Method, ShutdownHandler> handlerMethods = MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<ShutdownHandler>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, ShutdownHandler.class));
		Map<Method, FinalAction> actionMethods = MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<FinalAction>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, FinalAction.class));
		if (handlerMethods.isEmpty() && actionMethods.isEmpty()) {
			this.classesWithoutMethods.add(type);
			return;
		}
		handlerMethods.forEach((method, annotation) -> {
			String name = StringUtils.hasText(annotation.name()) ? annotation.name()
					: beanName + "." + method.getName();
			Duration timeout = handlerTimeout(annotation, method);
			Method invocable = invocable(method, bean, "@ShutdownHandler");
			Order methodOrder = AnnotatedElementUtils.findMergedAnnotation(method, Order.class);
			int order = (methodOrder != null) ? methodOrder.value() : beanOrder(bean, type);
			addHandler(new Handler(name, timeout, () -> invoke(invocable, bean), order, this.sequence.incrementAndGet(),
					"@ShutdownHandler(timeout) on " + method.getDeclaringClass().getName() + "." + method.getName()));
		});
		actionMethods.forEach((method, annotation) -> {
			String name = StringUtils.hasText(annotation.name()) ? annotation.name()
					: beanName + "." + method.getName();
			Method invocable = invocable(method, bean, "@FinalAction");
			addFinalAction(new Action(name, () -> {
				try {
					invoke(invocable, bean);
				}
				catch (RuntimeException ex) {
					throw ex;
				}
				catch (Exception ex) {
					throw new IllegalStateException("Final action '" + name + "' failed", ex);
				}
			}));
		});
	}

	/**
	 * Hands the collected handlers (in {@code @Order}, then creation order) and final
	 * actions (in creation order; the engine runs them in reverse) to the engine.
	 */
	void register(LifecycleManager manager) {
		List<Handler> sortedHandlers;
		List<Action> actions;
		synchronized (this.handlers) {
			this.registered = true;
			sortedHandlers = new ArrayList<>(this.handlers);
			actions = new ArrayList<>(this.finalActions);
		}
		sortedHandlers.sort(Comparator.comparingInt(Handler::order).thenComparingInt(Handler::sequence));
		for (Handler handler : sortedHandlers) {
			try {
				manager.addShutdownHandler(handler.name(), handler.timeout(), handler.handler());
			}
			catch (InvalidOptionException ex) {
				throw OptionErrors.setting(ex, handler.setting());
			}
		}
		actions.forEach((action) -> manager.addFinalAction(action.name(), action.action()));
	}

	private void addHandler(Handler handler) {
		synchronized (this.handlers) {
			if (!tooLate(handler.name(), "shutdown handler")) {
				this.handlers.add(handler);
			}
		}
	}

	private void addFinalAction(Action action) {
		synchronized (this.handlers) {
			if (!tooLate(action.name(), "final action")) {
				this.finalActions.add(action);
			}
		}
	}

	/**
	 * Whether the engine already has its handlers: a bean created after the start (a lazy
	 * bean on its first use) is said once, loudly, rather than dropped in silence.
	 */
	private boolean tooLate(String name, String kind) {
		if (this.registered) {
			logger.warn("Lifecycle: " + kind + " '" + name + "' belongs to a bean created after Lifecycle started (a "
					+ "lazy bean on its first use) and will not run; make its bean eager (remove @Lazy) so that it "
					+ "exists at start-up");
		}
		return this.registered;
	}

	private Duration handlerTimeout(ShutdownHandler annotation, Method method) {
		String setting = "@ShutdownHandler(timeout) on " + method.getDeclaringClass().getName() + "."
				+ method.getName();
		String value = this.placeholders.apply(annotation.timeout());
		Duration timeout;
		try {
			timeout = DurationStyle.detectAndParse(value.trim());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidLifecycleConfigurationException(setting, "is not a duration: '" + value + "'",
					"Use Spring Boot's duration format, such as \"30s\" or \"2m\".");
		}
		// The engine checks the range when the handler is added; its error names this
		// setting.
		return timeout;
	}

	private static Method invocable(Method method, Object bean, String annotation) {
		if (method.getParameterCount() != 0) {
			throw new InvalidLifecycleConfigurationException(
					annotation + " on " + method.getDeclaringClass().getName() + "." + method.getName(),
					"must annotate a method without parameters",
					"Remove the method's parameters; inject what it needs into its bean instead.");
		}
		Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		ReflectionUtils.makeAccessible(invocable);
		return invocable;
	}

	private static void invoke(Method method, Object bean) throws Exception {
		try {
			method.invoke(bean);
		}
		catch (InvocationTargetException ex) {
			Throwable cause = ex.getTargetException();
			if (cause instanceof Exception exception) {
				throw exception;
			}
			throw (Error) cause;
		}
	}

	private static int beanOrder(Object bean, Class<?> type) {
		if (bean instanceof Ordered ordered) {
			return ordered.getOrder();
		}
		return OrderUtils.getOrder(type, Ordered.LOWEST_PRECEDENCE);
	}

	private record Handler(String name, Duration timeout, dev.lifecycle.core.ShutdownTask handler, int order,
			int sequence, String setting) {
	}

	private record Action(String name, Runnable action) {
	}

}
