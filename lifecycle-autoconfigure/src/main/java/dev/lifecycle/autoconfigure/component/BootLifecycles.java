package dev.lifecycle.autoconfigure.component;

import java.util.Map;

import dev.lifecycle.autoconfigure.InternalHooks;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.ApplicationContext;
import org.springframework.context.Lifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Spring Boot's own lifecycle beans that Lifecycle does not adopt: the web server's
 * graceful shutdown and its start and stop (run as steps of the sequence), the logging
 * system's (left to Spring, which stops it last) and the separate management server's
 * (the sequence's last step). Each is recognised by Spring Boot 4's public type where it
 * has one, else by the fixed name its context registers it under: three hooks resolved
 * once, when the context refreshes and the beans are adopted. A hook that misses leaves
 * its bean to be adopted like any other.
 */
final class BootLifecycles {

	static final InternalHooks.Point WEB_SERVER = new InternalHooks.Point("boot.web-server-lifecycles",
			"Spring Boot's beans 'webServerGracefulShutdown' (a WebServerGracefulShutdownLifecycle) and "
					+ "'webServerStartStop'",
			"the web server's graceful shutdown and stop as steps of Lifecycle's sequence",
			"The web server stops as one of the adopted beans: the report does not say whether in-flight "
					+ "requests finished. Use the Spring Boot version Lifecycle supports (4.1).");

	static final InternalHooks.Point LOGGING = new InternalHooks.Point("boot.logging-lifecycle",
			"Spring Boot's LoggingApplicationListener lifecycle bean 'springBootLoggingLifecycle'",
			"the logging system kept until the end of Lifecycle's sequence",
			"The logging lifecycle is adopted like any bean and the logging system may be cleaned up before "
					+ "the sequence's last steps log. Use the Spring Boot version Lifecycle supports (4.1).");

	static final InternalHooks.Point MANAGEMENT = new InternalHooks.Point("boot.management-server",
			"Spring Boot's bean 'childManagementContextInitializer' (the separate management server)",
			"the separate management server stopped last, after Lifecycle's sequence",
			"The management server (probes, metrics) is adopted like any bean and stops with the standard "
					+ "drain, before the report is written. Use the Spring Boot version Lifecycle supports (4.1).");

	/** The names Spring Boot's web server contexts register their lifecycles under. */
	static final String GRACEFUL_SHUTDOWN_BEAN = "webServerGracefulShutdown";

	static final String START_STOP_BEAN = "webServerStartStop";

	/**
	 * Spring Boot's logging lifecycle bean (its name is private, its type a private
	 * member class).
	 */
	private static final String LOGGING_BEAN = "springBootLoggingLifecycle";

	/**
	 * The bean of Spring Boot's actuator that runs a management server on a port of its
	 * own.
	 */
	static final String MANAGEMENT_BEAN = "childManagementContextInitializer";

	/** Spring Boot's web server module, present or not. */
	private static final String WEB_SERVER_CONTEXT = "org.springframework.boot.web.server.context.WebServerApplicationContext";

	private final @Nullable SmartLifecycle gracefulShutdown;

	private final @Nullable Lifecycle startStop;

	private final @Nullable Lifecycle logging;

	private final @Nullable Lifecycle managementServer;

	private BootLifecycles(@Nullable SmartLifecycle gracefulShutdown, @Nullable Lifecycle startStop,
			@Nullable Lifecycle logging, @Nullable Lifecycle managementServer) {
		this.gracefulShutdown = gracefulShutdown;
		this.startStop = startStop;
		this.logging = logging;
		this.managementServer = managementServer;
	}

	/**
	 * Finds Spring Boot's lifecycle beans among the context's and records each hook.
	 * @param beans the context's lifecycle beans by name
	 * @param context their context; {@code null} outside an application context
	 */
	static BootLifecycles find(Map<String, Lifecycle> beans, @Nullable ApplicationContext context,
			InternalHooks hooks) {
		SmartLifecycle graceful = null;
		Lifecycle startStop = null;
		boolean webServer = context != null && runsWebServer(context);
		if (!webServer) {
			hooks.notApplicable(WEB_SERVER, "no web server in this context");
		}
		else if (WebServerTypes.isGracefulShutdown(beans.get(GRACEFUL_SHUTDOWN_BEAN))
				&& beans.get(START_STOP_BEAN) != null) {
			graceful = (SmartLifecycle) beans.get(GRACEFUL_SHUTDOWN_BEAN);
			startStop = beans.get(START_STOP_BEAN);
			hooks.resolved(WEB_SERVER);
		}
		else {
			hooks.missed(WEB_SERVER, "the context runs a web server but no bean '" + GRACEFUL_SHUTDOWN_BEAN
					+ "' of type WebServerGracefulShutdownLifecycle and '" + START_STOP_BEAN + "'");
		}
		Lifecycle logging = null;
		for (Lifecycle bean : beans.values()) {
			if (bean.getClass().getEnclosingClass() == LoggingApplicationListener.class) {
				logging = bean;
			}
		}
		if (logging != null) {
			hooks.resolved(LOGGING);
		}
		else if (beans.containsKey(LOGGING_BEAN)) {
			hooks.missed(LOGGING,
					"the bean '" + LOGGING_BEAN + "' is a " + beans.get(LOGGING_BEAN).getClass().getName());
		}
		else {
			hooks.notApplicable(LOGGING, "Spring Boot's logging system registered no lifecycle bean here");
		}
		Lifecycle management = beans.get(MANAGEMENT_BEAN);
		if (management != null) {
			hooks.resolved(MANAGEMENT);
		}
		else if (webServer && context != null && separateManagementPort(context.getEnvironment())) {
			hooks.missed(MANAGEMENT, "management.server.port is set, but no bean '" + MANAGEMENT_BEAN + "'");
		}
		else {
			hooks.notApplicable(MANAGEMENT, "no management server on a port of its own");
		}
		return new BootLifecycles(graceful, startStop, logging, management);
	}

	/** Whether the bean is one of Spring Boot's that Lifecycle does not adopt. */
	boolean isBoots(Lifecycle bean) {
		return bean == this.gracefulShutdown || bean == this.startStop || bean == this.logging
				|| bean == this.managementServer;
	}

	@Nullable SmartLifecycle gracefulShutdown() {
		return this.gracefulShutdown;
	}

	@Nullable Lifecycle startStop() {
		return this.startStop;
	}

	@Nullable Lifecycle managementServer() {
		return this.managementServer;
	}

	private static boolean runsWebServer(ApplicationContext context) {
		return ClassUtils.isPresent(WEB_SERVER_CONTEXT, context.getClassLoader())
				&& WebServerTypes.runsWebServer(context);
	}

	/**
	 * Whether a management server runs on a port of its own, as Spring Boot's actuator
	 * decides it.
	 */
	private static boolean separateManagementPort(Environment environment) {
		Integer management = environment.getProperty("management.server.port", Integer.class);
		if (management == null || management < 0) {
			return false;
		}
		Integer server = environment.getProperty("server.port", Integer.class);
		return !((server == null && management == 8080) || (management != 0 && management.equals(server)));
	}

	/** Loaded only when Spring Boot's web server module is present. */
	private static final class WebServerTypes {

		static boolean runsWebServer(ApplicationContext context) {
			return context instanceof WebServerApplicationContext web && web.getWebServer() != null;
		}

		static boolean isGracefulShutdown(@Nullable Lifecycle bean) {
			return bean instanceof WebServerGracefulShutdownLifecycle;
		}

	}

}
