package dev.lifecycle.scenarios;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A stack the suite runs the application on: which of the module's jars its class path
 * leaves out, its arguments, and the promises a scenario on it checks. A new stack is
 * supported once it is added here: the suite runs it and the support table shows it.
 */
enum Stack {

	TOMCAT("Tomcat (servlet)", List.of(Jars.JETTY), List.of()),

	JETTY("Jetty (servlet)", List.of(Jars.TOMCAT), List.of()),

	REACTOR_NETTY("Reactor Netty (WebFlux)", List.of(Jars.TOMCAT, Jars.JETTY),
			List.of("--spring.main.web-application-type=reactive")),

	/**
	 * The gRPC Netty server with no web server, its grace period shorter than its budget:
	 * the calls it cuts must be named.
	 */
	GRPC_NETTY("gRPC Netty server (no web server)", List.of(Jars.TOMCAT, Jars.JETTY),
			List.of("--spring.main.web-application-type=none",
					"--spring.grpc.server.shutdown.grace-period=" + ScenarioRun.GRPC_GRACE_PERIOD.toMillis() + "ms"));

	/**
	 * What the web stacks promise; each also runs a gRPC Netty and an in-process gRPC
	 * server beside.
	 */
	private static final Set<Promise> WEB = EnumSet.complementOf(EnumSet.of(Promise.CUT_NAMED));

	private final String title;

	private final List<String> leftOut;

	private final List<String> arguments;

	Stack(String title, List<List<String>> leftOut, List<String> arguments) {
		this.title = title;
		this.leftOut = leftOut.stream().flatMap(List::stream).toList();
		this.arguments = arguments;
	}

	String title() {
		return this.title;
	}

	/** Prefixes of the names of the jars this stack's class path leaves out. */
	List<String> leftOut() {
		return this.leftOut;
	}

	List<String> arguments() {
		return this.arguments;
	}

	boolean web() {
		return this != GRPC_NETTY;
	}

	Set<Promise> promises() {
		if (web()) {
			return WEB;
		}
		return EnumSet.of(Promise.READINESS_FIRST, Promise.SERVED_THROUGH_DRAIN, Promise.BACKGROUND_WORK,
				Promise.STREAMS_END_RETRYABLE, Promise.STREAMS_PACED, Promise.IN_PROCESS_CALLS, Promise.EXECUTORS,
				Promise.NO_FAILED_REQUESTS, Promise.CUT_NAMED, Promise.TRUE_RECORDS);
	}

	/** Name prefixes of a web server's jars. */
	private static final class Jars {

		static final List<String> TOMCAT = List.of("tomcat-embed-", "spring-boot-tomcat", "spring-boot-starter-tomcat");

		static final List<String> JETTY = List.of("jetty-", "spring-boot-jetty", "spring-boot-starter-jetty");

	}

}
