package dev.lifecycle.autoconfigure.web.servlet;

import jakarta.servlet.ServletRequest;

import org.springframework.util.ClassUtils;

/**
 * Whether Jetty serves a request: both servers' classes may be on the class path, and
 * {@link JettyRequests}, which names Jetty's types, may be loaded only when it does.
 */
final class JettyServed {

	private static final boolean PRESENT = ClassUtils.isPresent("org.eclipse.jetty.ee11.servlet.ServletContextRequest",
			JettyServed.class.getClassLoader());

	private JettyServed() {
	}

	static boolean serves(ServletRequest request) {
		if (!PRESENT) {
			return false;
		}
		return ContainerRequests.unwrap(request).getClass().getName().startsWith("org.eclipse.jetty.");
	}

}
