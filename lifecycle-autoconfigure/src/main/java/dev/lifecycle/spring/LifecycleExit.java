package dev.lifecycle.spring;

/**
 * Ends the process, or not, after a shutdown that Lifecycle started (a trapped signal,
 * the pre-stop file, a component, {@code LifecycleTestSupport.triggerShutdown()}) has
 * ended and the context has closed; it receives the report's exit code. It is never
 * called when something else closed the context (Spring's shutdown hook,
 * {@code SpringApplication.exit}, a test): whoever closes the context owns the process.
 * The default is {@link #system()} when {@code lifecycle.signals.trap} is true, else
 * {@link #none()}; declare a bean to replace it, to record the code in a test say. What
 * each code means: {@link dev.lifecycle.core.ExitCodes}.
 */
@FunctionalInterface
public interface LifecycleExit {

	/**
	 * Ends the process, or not.
	 * @param exitCode the shutdown report's exit code
	 */
	void exit(int exitCode);

	/**
	 * Exits the JVM with the code; shutdown hooks run and find the context already
	 * closed.
	 */
	static LifecycleExit system() {
		return System::exit;
	}

	/**
	 * Leaves the JVM running; it ends on its own once its last non-daemon thread ends.
	 */
	static LifecycleExit none() {
		return (exitCode) -> {
		};
	}

}
