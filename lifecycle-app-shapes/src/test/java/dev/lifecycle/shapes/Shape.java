package dev.lifecycle.shapes;

import java.util.regex.Pattern;

/**
 * The bean shapes the application of ordinary shapes is made of, each with what its page
 * answers when the shape works. The tests check every entry, and the manual's table of
 * proven shapes (docs/support.md) is generated from this list.
 */
enum Shape {

	REQUEST_SCOPE("request", "`@RequestScope` bean behind a scoped proxy, injected into a singleton", "\"request\":36"),

	SESSION_SCOPE("session", "`@SessionScope` bean behind a scoped proxy", "\"session\":1"),

	PROTOTYPE_PROXY("prototype", "prototype behind a class-based scoped proxy (`proxyMode = TARGET_CLASS`)",
			"\"prototype\":true"),

	JPA("jpa", "Spring Data JPA repository (a factory bean) behind a `@Transactional` service (Hibernate, H2)",
			"\"jpa\":1"),

	INTEGRATION("integration", "Spring Integration flow and `@MessagingGateway` (a factory bean of a JDK proxy)",
			"\"integration\":\"SHAPES\""),

	ASYNC("async", "`@Async` method declared on an interface, run on the `@Primary` executor", "\"async\":true"),

	LAZY("lazy", "`@Lazy` bean through a `@Lazy` injection point", "\"lazy\":\"report\""),

	CACHE("cache", "`@Cacheable` method (a caching proxy)", "\"cache\":12"),

	FACTORY_EXECUTOR("factoryPool", "`@Bean FactoryBean<ExecutorService>` whose product is used",
			"\"factoryPool\":\"ran\""),

	WRAPPED_EXECUTOR("meteredPool", "executor wrapped by another library (Micrometer's `ExecutorServiceMetrics`)",
			"\"meteredPool\":\"ran\""),

	QUALIFIED_EXECUTOR("qualified", "`@Primary` and `@Qualifier` executor beans", "\"qualified\":true"),

	QUARTZ("quartz", "Quartz scheduler (a factory bean that starts non-daemon threads) and a repeating job",
			"\"quartz\":true"),

	BATCH("batch", "Spring Batch job with a `@StepScope` reader, run at start-up", "\"batch\":[1-9][0-9]*");

	private final String key;

	private final String description;

	private final Pattern answer;

	Shape(String key, String description, String answer) {
		this.key = key;
		this.description = description;
		this.answer = Pattern.compile(answer);
	}

	String key() {
		return this.key;
	}

	String description() {
		return this.description;
	}

	/** Whether the page's answer says this shape worked. */
	boolean workedIn(String page) {
		return this.answer.matcher(page).find();
	}

}
