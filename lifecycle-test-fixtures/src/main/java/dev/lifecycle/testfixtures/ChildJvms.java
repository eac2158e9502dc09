package dev.lifecycle.testfixtures;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The child JVMs of a test, as a JUnit extension: when the test failed, it prints every
 * child's log (before any other after-each method runs), and after each test it kills
 * every child still running. Register it on a field: <pre class="code">
 * &#64;RegisterExtension
 * final ChildJvms jvms = new ChildJvms();
 * </pre> and launch through it: {@code this.jvms.start(ChildJvm.java("app", dir)...)}.
 */
public final class ChildJvms implements AfterTestExecutionCallback, AfterEachCallback {

	private final List<ChildJvm> children = new CopyOnWriteArrayList<>();

	/**
	 * Launches a child, without waiting for it to be ready, and keeps it.
	 * @param launch the launch
	 * @return the child
	 * @throws IOException if it cannot be launched
	 */
	public ChildJvm launch(JvmLaunch launch) throws IOException {
		return add(launch.launch());
	}

	/**
	 * Launches a child, keeps it, and waits until it is ready.
	 * @param launch the launch
	 * @return the child, ready
	 * @throws IOException if it cannot be launched
	 */
	public ChildJvm start(JvmLaunch launch) throws IOException {
		return launch(launch).awaitReady();
	}

	/**
	 * Keeps a child launched elsewhere.
	 * @param child the child
	 * @return the child
	 */
	public ChildJvm add(ChildJvm child) {
		this.children.add(child);
		return child;
	}

	@Override
	public void afterTestExecution(ExtensionContext context) {
		if (context.getExecutionException().isPresent()) {
			for (ChildJvm child : this.children) {
				System.err.println("----- " + child + " -----\n" + child.log());
			}
		}
	}

	@Override
	public void afterEach(ExtensionContext context) {
		for (ChildJvm child : this.children) {
			child.close();
		}
		this.children.clear();
	}

}
