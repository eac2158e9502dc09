package dev.lifecycle.benchmarks.request;

import java.util.concurrent.TimeUnit;

import dev.lifecycle.autoconfigure.web.reactive.ReactiveRequestPath;
import dev.lifecycle.core.LifecycleManager;
import reactor.core.publisher.Mono;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.config.EnableWebFlux;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;

/**
 * What Lifecycle's reactive filter ({@code ConnectionDrainWebFilter}) adds to a request
 * while the application serves: WebFlux answering {@code GET /hello} from a
 * {@code @RestController} returning {@code Mono<String>} (a 5-byte text body), through
 * the {@link HttpHandler} that {@link WebHttpHandlerBuilder} builds from the application
 * context (what a server adapter such as Reactor Netty's calls), without Lifecycle's
 * filter ({@link #without}) and with it first in the chain ({@link #with});
 * {@link #withEmptyFilter} has a filter that only calls the chain there instead, for
 * scale. Each operation is one request: a fresh mock request and response (the server's
 * part, the same in both), the exchange, the dispatch, the encoding of the body.
 *
 * <p>
 * The goal (issue 40, item 5): {@code with} ≤ 1.03 × {@code without}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 8, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
@State(Scope.Benchmark)
public class ReactiveRequestBenchmark {

	private LifecycleManager manager;

	private AnnotationConfigApplicationContext context;

	private HttpHandler plain;

	private HttpHandler lifecycle;

	private HttpHandler empty;

	@Setup(Level.Trial)
	public void setUp() {
		this.manager = LifecycleManager.builder("bench-reactive").build();
		this.context = new AnnotationConfigApplicationContext(WebFlux.class);
		WebFilter filter = ReactiveRequestPath.connectionDrainWebFilter(this.manager, new StandardEnvironment());
		this.plain = WebHttpHandlerBuilder.applicationContext(this.context).build();
		this.lifecycle = WebHttpHandlerBuilder.applicationContext(this.context)
			.filters((filters) -> filters.add(0, filter))
			.build();
		WebFilter emptyFilter = (exchange, chain) -> chain.filter(exchange);
		this.empty = WebHttpHandlerBuilder.applicationContext(this.context)
			.filters((filters) -> filters.add(0, emptyFilter))
			.build();
		// The variant with Lifecycle really runs through its filter and response
		// decorator.
		expect(handle(this.lifecycle, "/probe"), "EndingStreams");
		expect(handle(this.plain, "/probe"), "MockServerHttpResponse");
		expect(without(), "hello");
		expect(with(), "hello");
		expect(withEmptyFilter(), "hello");
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		expect(with(), "hello");
		if (this.manager.isShutdownInitiated()) {
			throw new IllegalStateException("the manager must be serving");
		}
		this.context.close();
	}

	@Benchmark
	public MockServerHttpResponse without() {
		return handle(this.plain, "/hello");
	}

	@Benchmark
	public MockServerHttpResponse with() {
		return handle(this.lifecycle, "/hello");
	}

	/** For scale: what any filter costs, one that only calls the chain. */
	@Benchmark
	public MockServerHttpResponse withEmptyFilter() {
		return handle(this.empty, "/hello");
	}

	private static MockServerHttpResponse handle(HttpHandler handler, String path) {
		MockServerHttpRequest request = MockServerHttpRequest.get(path)
			.header("Host", "localhost:8080")
			.header("Accept", "*/*")
			.build();
		MockServerHttpResponse response = new MockServerHttpResponse();
		handler.handle(request, response).block();
		return response;
	}

	private static void expect(MockServerHttpResponse response, String body) {
		// No status set is 200.
		String actual = response.getBodyAsString().block();
		if ((response.getStatusCode() != null && response.getStatusCode() != HttpStatus.OK) || actual == null
				|| !actual.endsWith(body)) {
			throw new IllegalStateException(
					"expected 200 '" + body + "', got " + response.getStatusCode() + " '" + actual + "'");
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebFlux
	static class WebFlux {

		@Bean
		Hello hello() {
			return new Hello();
		}

	}

	@RestController
	static class Hello {

		@GetMapping("/hello")
		Mono<String> hello() {
			return Mono.just("hello");
		}

		/** The class of the response the exchange the controller is handed holds. */
		@GetMapping("/probe")
		Mono<String> probe(ServerWebExchange exchange) {
			return Mono.just(exchange.getResponse().getClass().getName());
		}

	}

}
