package dev.lifecycle.shapes;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application of ordinary shapes, started in-process as users configure it: it
 * starts, its page uses every shape and answers 200, every component and shutdown handler
 * is seen, and closing it is a clean shutdown with exit code 0. Each variant is one way
 * users run the same code: Boot's defaults; lazy initialisation with interface-based
 * proxies; and no application name at all.
 */
@ExtendWith(OutputCaptureExtension.class)
class ApplicationShapesTests {

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	/** The ways users run the same code. */
	enum Variant {

		DEFAULTS("Boot's defaults"),

		LAZY_JDK_PROXIES("lazy initialisation, JDK proxies", "--spring.main.lazy-initialization=true",
				"--spring.aop.proxy-target-class=false"),

		NO_NAME("no application name", "--spring.application.name=");

		private final String title;

		private final List<String> arguments;

		Variant(String title, String... arguments) {
			this.title = title;
			this.arguments = List.of(arguments);
		}

		String title() {
			return this.title;
		}

		@Override
		public String toString() {
			return this.title;
		}

	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Variant.class)
	void everyShapeStartsServesAndStopsCleanly(Variant variant, @TempDir Path directory, CapturedOutput output)
			throws Exception {
		Path audit = directory.resolve("audit");
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--lifecycle.signals.trap=false",
				"--lifecycle.pre-stop.enabled=false", "--lifecycle.halt-after-ceiling=false",
				"--lifecycle.run-marker.path=" + directory.resolve("marker"), "--shapes.audit-file=" + audit));
		args.addAll(variant.arguments);
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ShapesApplication.class)
			.run(args.toArray(String[]::new));
		LifecycleManager manager = context.getBean(LifecycleManager.class);
		try {
			int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
			assertThat(manager.components().stream().map(ComponentView::name)).contains("ingest", "audit",
					"quartzScheduler");
			HttpResponse<String> page = get(port, "/shapes");
			assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
			assertThat(Shape.values()).allSatisfy(
					(shape) -> assertThat(shape.workedIn(page.body())).as(shape + " in " + page.body()).isTrue());
			assertThat(get(port, "/actuator/health/readiness").statusCode()).isEqualTo(200);
		}
		finally {
			context.close();
		}
		ShutdownReport report = manager.report().orElseThrow();
		assertThat(report.clean()).as(output.toString()).isTrue();
		assertThat(report.exitCode()).isZero();
		assertThat(Files.readString(audit)).isEqualTo("audit checkpoint\n");
		assertThat(output).doesNotContain("BeanCurrentlyInCreationException")
			.doesNotContain("Lifecycle: shutdown initiated (reason=start-failed");
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.timeout(Duration.ofSeconds(60))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
