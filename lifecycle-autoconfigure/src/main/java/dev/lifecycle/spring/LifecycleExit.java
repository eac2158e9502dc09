package dev.lifecycle.spring;

/**
 * What happens to the process once a shutdown that Lifecycle started has run its sequence and the
 * application context has closed. It receives the report's exit code: 0 clean, 1 a component
 * failed, died or stalled, 129 the global ceiling fired. (128, a second signal, never reaches it:
 * that exit is immediate.)
 *
 * <p>It is called on a non-daemon thread, after the context has closed (unless
 * {@code lifecycle.close-context=false}), for every shutdown that did not start with the context
 * closing by itself: a trapped signal, the pre-stop file, a component, or
 * {@code LifecycleTestSupport.triggerShutdown()} of {@code lifecycle-test}. When something else
 * closes the context (Spring's shutdown hook, a test, {@code SpringApplication.exit}) Lifecycle
 * leaves the process alone.
 *
 * <p>The auto-configured instance is {@link #system()} when {@code lifecycle.signals.trap} is true
 * (the default; {@code lifecycle-test} sets it to false under Spring's test framework) and
 * {@link #none()} otherwise. Declare a bean of this type to replace it, for example to record the
 * code in a test.
 */
@FunctionalInterface
public interface LifecycleExit {

	/**
	 * Ends the process, or not.
	 * @param exitCode the shutdown report's exit code
	 */
	void exit(int exitCode);

	/** Exits the JVM with the code; shutdown hooks run and find the context already closed. */
	static LifecycleExit system() {
		return System::exit;
	}

	/** Leaves the JVM running; it ends on its own once its last non-daemon thread ends. */
	static LifecycleExit none() {
		return (exitCode) -> {
		};
	}

}
