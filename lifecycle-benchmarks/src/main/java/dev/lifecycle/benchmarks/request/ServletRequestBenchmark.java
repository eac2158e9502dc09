package dev.lifecycle.benchmarks.request;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.autoconfigure.web.servlet.ServletRequestPath;
import dev.lifecycle.core.LifecycleManager;
import jakarta.servlet.Filter;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import jakarta.servlet.http.HttpServletResponse;

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
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockFilterConfig;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockServletConfig;
import org.springframework.mock.web.MockServletContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/**
 * What Lifecycle's servlet filter ({@code ConnectionDrainFilter} and the
 * {@code ClosingResponse} it wraps the response in) adds to a request while the
 * application serves: Spring MVC's {@link DispatcherServlet} answering {@code GET /hello}
 * from a {@code @RestController} (a 5-byte text body), through a filter chain without
 * Lifecycle's filter ({@link #without}) and with it ({@link #with}), as the servlet
 * container calls them. Each operation is one request: a fresh mock request, response and
 * chain (the container's part, the same in both).
 *
 * <p>
 * The goal (issue 40, item 5): {@code with} ≤ 1.03 × {@code without}. The denominator is
 * the smallest realistic one: no other filter (a Boot application adds its own), no
 * socket, no HTTP parsing.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 8, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
@State(Scope.Benchmark)
public class ServletRequestBenchmark {

	private LifecycleManager manager;

	private AnnotationConfigWebApplicationContext context;

	private MockServletContext servletContext;

	private DispatcherServlet servlet;

	private Filter lifecycle;

	private Filter empty;

	@Setup(Level.Trial)
	public void setUp() throws ServletException, IOException {
		this.manager = LifecycleManager.builder("bench-servlet").build();
		this.servletContext = new MockServletContext();
		this.context = new AnnotationConfigWebApplicationContext();
		this.context.setServletContext(this.servletContext);
		this.context.register(Mvc.class);
		this.context.refresh();
		this.servlet = new DispatcherServlet(this.context);
		this.servlet.init(new MockServletConfig(this.servletContext, "dispatcherServlet"));
		this.lifecycle = ServletRequestPath.connectionDrainFilter(this.manager, new StandardEnvironment());
		this.lifecycle.init(new MockFilterConfig(this.servletContext, "lifecycleConnectionDrainFilter"));
		this.empty = (request, response, chain) -> chain.doFilter(request, response);
		// The variant with Lifecycle really runs through its filter and response wrapper.
		MockHttpServletResponse probe = new MockHttpServletResponse();
		new MockFilterChain(this.servlet, this.lifecycle).doFilter(request("/probe"), probe);
		if (!probe.getContentAsString().contains(ServletRequestPath.closingResponseClass().getName())) {
			throw new IllegalStateException("no Lifecycle response in " + probe.getContentAsString());
		}
		expect(without(), "hello");
		expect(with(), "hello");
		expect(withEmptyFilter(), "hello");
	}

	@TearDown(Level.Trial)
	public void tearDown() throws ServletException, IOException {
		expect(with(), "hello");
		if (this.manager.isShutdownInitiated()) {
			throw new IllegalStateException("the manager must be serving");
		}
		this.servlet.destroy();
		this.context.close();
	}

	@Benchmark
	public MockHttpServletResponse without() throws ServletException, IOException {
		MockHttpServletResponse response = new MockHttpServletResponse();
		new MockFilterChain(this.servlet).doFilter(request("/hello"), response);
		return response;
	}

	@Benchmark
	public MockHttpServletResponse with() throws ServletException, IOException {
		MockHttpServletResponse response = new MockHttpServletResponse();
		new MockFilterChain(this.servlet, this.lifecycle).doFilter(request("/hello"), response);
		return response;
	}

	/** For scale: what any filter costs, one that only calls the chain. */
	@Benchmark
	public MockHttpServletResponse withEmptyFilter() throws ServletException, IOException {
		MockHttpServletResponse response = new MockHttpServletResponse();
		new MockFilterChain(this.servlet, this.empty).doFilter(request("/hello"), response);
		return response;
	}

	private MockHttpServletRequest request(String path) {
		MockHttpServletRequest request = new MockHttpServletRequest(this.servletContext, "GET", path);
		request.addHeader("Host", "localhost:8080");
		request.addHeader("Accept", "*/*");
		return request;
	}

	private static void expect(MockHttpServletResponse response, String body) throws IOException {
		if (response.getStatus() != 200 || !body.equals(response.getContentAsString())) {
			throw new IllegalStateException("expected 200 '" + body + "', got " + response.getStatus() + " '"
					+ response.getContentAsString() + "'");
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebMvc
	static class Mvc {

		@Bean
		Hello hello() {
			return new Hello();
		}

	}

	@RestController
	static class Hello {

		@GetMapping("/hello")
		String hello() {
			return "hello";
		}

		/** The class of the response the controller is handed. */
		@GetMapping("/probe")
		String probe(HttpServletResponse response) {
			ServletResponse current = response;
			StringBuilder classes = new StringBuilder(current.getClass().getName());
			while (current instanceof ServletResponseWrapper wrapper) {
				current = wrapper.getResponse();
				classes.append(' ').append(current.getClass().getName());
			}
			return classes.toString();
		}

	}

}
