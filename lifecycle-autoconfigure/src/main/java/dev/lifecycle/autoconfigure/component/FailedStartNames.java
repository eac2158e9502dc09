package dev.lifecycle.autoconfigure.component;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lifecycle.autoconfigure.InternalHooks;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.ApplicationContextException;
import org.springframework.context.Lifecycle;
import org.springframework.context.support.DefaultLifecycleProcessor;

/**
 * The name of the bean whose start failed a refresh. Spring's exception carries the name
 * only in its message, so it is read from there: a hook resolved once, when the lifecycle
 * processor is created, by letting a throwaway {@link DefaultLifecycleProcessor} fail to
 * start a probe bean and reading the probe's name back from the message. When that fails,
 * no message is read, and a failed start is recorded under {@code refresh}.
 */
final class FailedStartNames {

	static final InternalHooks.Point HOOK = new InternalHooks.Point("spring.failed-start-bean",
			"the message of the ApplicationContextException Spring's DefaultLifecycleProcessor throws when a "
					+ "bean's start throws (\"Failed to start bean '<name>'\")",
			"the name of the bean whose start threw in a failed start's trigger and report",
			"A failed start is recorded as component 'refresh'; its cause is still recorded. Use the Spring "
					+ "Framework version Spring Boot manages (7.0).");

	private static final Pattern FAILED_BEAN = Pattern.compile("Failed to start bean '([^']+)'");

	private static final String PROBE = "lifecycleFailedStartProbe";

	private final boolean readable;

	private FailedStartNames(boolean readable) {
		this.readable = readable;
	}

	/** Resolves the hook against the Spring on the class path. */
	static FailedStartNames resolve(InternalHooks hooks) {
		String message;
		try {
			DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
			beans.registerSingleton(PROBE, new FailingProbe());
			DefaultLifecycleProcessor processor = new DefaultLifecycleProcessor();
			processor.setBeanFactory(beans);
			processor.start();
			message = "the probe's start threw, but Spring did not report it";
		}
		catch (ApplicationContextException ex) {
			if (PROBE.equals(nameIn(ex))) {
				hooks.resolved(HOOK);
				return new FailedStartNames(true);
			}
			message = "Spring's message names no bean: " + ex.getMessage();
		}
		catch (RuntimeException | LinkageError ex) {
			message = ex.toString();
		}
		hooks.missed(HOOK, message);
		return new FailedStartNames(false);
	}

	/**
	 * The bean whose start threw, if the exception names one.
	 * @param ex what the refresh threw
	 * @return the bean's name, or {@code null} when not known
	 */
	@Nullable String beanOf(ApplicationContextException ex) {
		return this.readable ? nameIn(ex) : null;
	}

	private static @Nullable String nameIn(ApplicationContextException ex) {
		Matcher bean = FAILED_BEAN.matcher(String.valueOf(ex.getMessage()));
		return bean.find() ? bean.group(1) : null;
	}

	/** A bean whose start throws. */
	private static final class FailingProbe implements Lifecycle {

		@Override
		public void start() {
			throw new IllegalStateException("a probe of how Spring reports a failed start");
		}

		@Override
		public void stop() {
		}

		@Override
		public boolean isRunning() {
			return false;
		}

	}

}
