package dev.lifecycle.core;

/**
 * The sources of a shutdown that are not a component: what a
 * {@link ShutdownTrigger#component()} says when a signal, the pre-stop file or the host
 * application started the shutdown. Each label is spelled here only, because logs, the
 * {@code component} metric label, the endpoint and the reports on disk all carry it, and
 * dashboards match it.
 */
public enum TriggerSource {

	/** A {@link ShutdownSignal}, trapped by the host. */
	SIGNAL("signal"),

	/** The pre-stop file appeared. */
	PRESTOP("prestop"),

	/** The host application closed (a Spring context's plain close). */
	CONTEXT_CLOSE("context-close"),

	/**
	 * The host application's start (a Spring context's refresh) failed, naming no single
	 * part.
	 */
	REFRESH("refresh"),

	/**
	 * The host application's run failed after its start (a Spring application runner
	 * threw).
	 */
	APPLICATION_RUN("application-run"),

	/** The host application asked to exit ({@code SpringApplication.exit}). */
	SPRING_APPLICATION_EXIT("spring-application-exit"),

	/** A test asked for the shutdown ({@code LifecycleTestSupport.triggerShutdown()}). */
	TEST("test");

	private final String label;

	TriggerSource(String label) {
		this.label = label;
	}

	/**
	 * The value in logs, in the {@code trigger_component} metric label and in JSON
	 * reports.
	 */
	public String label() {
		return this.label;
	}

	/**
	 * What a trigger naming this source says, as the manual's table of trigger sources
	 * says it: that table is generated from this declaration.
	 * @return one sentence fragment, in Markdown
	 */
	public String meaning() {
		return switch (this) {
			case SIGNAL -> "a [signal](#signals) trapped by the host";
			case PRESTOP -> "the pre-stop file appeared";
			case CONTEXT_CLOSE -> "the host application closed (a Spring context's plain close)";
			case REFRESH -> "the host application's start (a Spring context's refresh) failed, naming no single part";
			case APPLICATION_RUN -> "an `ApplicationRunner` or `CommandLineRunner` threw after the refresh";
			case SPRING_APPLICATION_EXIT -> "the host application asked to exit (`SpringApplication.exit`)";
			case TEST -> "a test asked for the shutdown (`LifecycleTestSupport.triggerShutdown()`)";
		};
	}

}
