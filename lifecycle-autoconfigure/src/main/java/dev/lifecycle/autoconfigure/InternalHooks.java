package dev.lifecycle.autoconfigure;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.core.Internal;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ReflectionUtils;

/**
 * Lifecycle's hooks into the internals of the web servers and of Spring: private fields
 * and methods, internal types, Spring Boot's bean names and the text of Spring's
 * messages, each serving one feature. Every hook is resolved once, when the bean that
 * needs it is created or its server starts, never per request, and recorded here:
 * resolved, missed, or not applicable. A miss logs one WARN naming the feature that is
 * now off and what to do; the {@code lifecycle} endpoint lists every hook with its state.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
@Internal
public final class InternalHooks {

	private static final Log logger = LogFactory.getLog(InternalHooks.class);

	private final Map<String, Hook> hooks = new LinkedHashMap<>();

	private final AtomicInteger resolutions = new AtomicInteger();

	/**
	 * Resolves a hook and records the outcome: resolved when the resolver returns a
	 * value, missed when it returns {@code null} or throws (a member renamed, a type
	 * changed or gone, access refused).
	 * @param point the hook
	 * @param resolver what reaches into the internals
	 * @param <T> what the hook gives its feature
	 * @return the value, or {@code null} when the hook missed and its feature is off
	 */
	public <T> @Nullable T resolve(Point point, Resolver<T> resolver) {
		T value;
		String reason;
		try {
			value = resolver.resolve();
			reason = "not found";
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			value = null;
			reason = ex.toString();
		}
		if (value != null) {
			resolved(point);
		}
		else {
			missed(point, reason);
		}
		return value;
	}

	/**
	 * Records a hook found where it was looked for.
	 * @param point the hook
	 */
	public void resolved(Point point) {
		this.resolutions.incrementAndGet();
		record(point, State.RESOLVED, null);
	}

	/**
	 * Records a hook that missed: its feature is off. Logs one WARN per hook.
	 * @param point the hook
	 * @param reason what was not found
	 */
	public void missed(Point point, String reason) {
		this.resolutions.incrementAndGet();
		Hook before = record(point, State.MISSED, reason);
		if (before == null || before.state() != State.MISSED) {
			logger.warn("Lifecycle: " + point.feature() + " is off: the hook '" + point.name() + "' cannot reach "
					+ point.target() + " (" + reason + "). " + point.remedy());
		}
	}

	/**
	 * Records a hook that this application does not need (its server or module is
	 * absent).
	 * @param point the hook
	 * @param why why it does not apply
	 */
	public void notApplicable(Point point, String why) {
		this.resolutions.incrementAndGet();
		record(point, State.NOT_APPLICABLE, why);
	}

	/**
	 * Every hook recorded, in the order first recorded.
	 * @return the hooks
	 */
	public synchronized List<Hook> hooks() {
		return List.copyOf(this.hooks.values());
	}

	/**
	 * How many times a hook was resolved or recorded: it stays the same while requests
	 * are served.
	 */
	int resolutions() {
		return this.resolutions.get();
	}

	private synchronized @Nullable Hook record(Point point, State state, @Nullable String reason) {
		return this.hooks.put(point.name(), new Hook(point.name(), point.target(), point.feature(), state, reason));
	}

	/**
	 * A declared field of a type, made accessible, whose type is {@code type} or a
	 * subtype of it.
	 * @param owner the type that declares it
	 * @param name its name
	 * @param type the type it must have
	 * @return the field
	 * @throws NoSuchFieldException when the type has no such field, or one of another
	 * type
	 */
	public static Field field(Class<?> owner, String name, Class<?> type) throws NoSuchFieldException {
		Field field = owner.getDeclaredField(name);
		if (!type.isAssignableFrom(field.getType())) {
			throw new NoSuchFieldException(
					owner.getName() + "." + name + " is a " + field.getType().getName() + ", not a " + type.getName());
		}
		ReflectionUtils.makeAccessible(field);
		return field;
	}

	/**
	 * A declared method of a type without parameters, made accessible, returning
	 * {@code type} or a subtype of it.
	 * @param owner the type that declares it
	 * @param name its name
	 * @param type the type it must return
	 * @return the method
	 * @throws NoSuchMethodException when the type has no such method, or one of another
	 * type
	 */
	public static Method method(Class<?> owner, String name, Class<?> type) throws NoSuchMethodException {
		Method method = owner.getDeclaredMethod(name);
		if (!type.isAssignableFrom(method.getReturnType())) {
			throw new NoSuchMethodException(owner.getName() + "." + name + "() returns a "
					+ method.getReturnType().getName() + ", not a " + type.getName());
		}
		ReflectionUtils.makeAccessible(method);
		return method;
	}

	/**
	 * One hook as declared by the code that needs it.
	 *
	 * @param name its name, {@code <where>.<what>}, e.g. {@code tomcat.pipelining}
	 * @param target what it reaches into, e.g.
	 * {@code org.apache.coyote.Request.hook (field)}
	 * @param feature the feature it serves, worded so that "… is off" reads as a sentence
	 * @param remedy what a miss means for the application and what to do about it
	 */
	public record Point(String name, String target, String feature, String remedy) {
	}

	/**
	 * One hook as resolved in this application.
	 *
	 * @param name its name
	 * @param target what it reaches into
	 * @param feature the feature it serves
	 * @param state whether it was resolved
	 * @param reason why it missed or does not apply; {@code null} when resolved
	 */
	public record Hook(String name, String target, String feature, State state, @Nullable String reason) {
	}

	/** Where a hook stands. */
	public enum State {

		/** Found: its feature is on. */
		RESOLVED,

		/** Not found: its feature is off, and a WARN said so. */
		MISSED,

		/** Not needed by this application: its server or module is absent. */
		NOT_APPLICABLE

	}

	/**
	 * What reaches into the internals.
	 *
	 * @param <T> what the hook gives its feature
	 */
	@FunctionalInterface
	public interface Resolver<T> {

		/**
		 * Reaches into the internals.
		 * @return what the feature needs, or {@code null} when not found
		 * @throws ReflectiveOperationException when a member or type is not found
		 */
		@Nullable T resolve() throws ReflectiveOperationException;

	}

}
