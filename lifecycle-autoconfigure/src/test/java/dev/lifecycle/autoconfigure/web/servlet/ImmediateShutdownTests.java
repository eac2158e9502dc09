package dev.lifecycle.autoconfigure.web.servlet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A user's {@code server.shutdown=immediate}: the web server's stop cuts the requests
 * still in flight, and the report says so (not clean, each cut request counted among the
 * failed requests, the stop's step failed), never clean.
 */
class ImmediateShutdownTests {

	@ParameterizedTest
	@ValueSource(strings = { "tomcat", "jetty" })
	void aRequestInFlightThatAnImmediateShutdownCutsMakesTheReportNotClean(String server) throws Exception {
		try (ConfigurableApplicationContext context = ServletDrainApplications.startOn(SlowApplication.class, server,
				"server.shutdown=immediate", "lifecycle.drain-delay=500ms")) {
			SlowApplication.Slow slow = context.getBean(SlowApplication.Slow.class);
			try {
				CompletableFuture<HttpResponse<String>> request = HttpClient.newHttpClient()
					.sendAsync(HttpRequest
						.newBuilder(URI.create("http://localhost:" + ServletDrainApplications.port(context) + "/slow"))
						.timeout(Duration.ofSeconds(60))
						.build(), HttpResponse.BodyHandlers.ofString());
				await().atMost(Duration.ofSeconds(30)).until(() -> slow.serving() == 1);
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
				ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(60)).orElseThrow();
				assertThat(report.clean()).as(report.toString()).isFalse();
				assertThat(report.failedRequests()).as(report.toString()).isEqualTo(1);
				assertThat(report.failedSteps()).contains("closing step 'web server stop'");
				slow.release();
				assertThat(request).as("the cut request is no answer")
					.failsWithin(Duration.ofSeconds(30))
					.withThrowableThat()
					.isNotNull();
			}
			finally {
				slow.release();
			}
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class SlowApplication {

		@RestController
		static class Slow {

			private final AtomicInteger serving = new AtomicInteger();

			private final CountDownLatch released = new CountDownLatch(1);

			int serving() {
				return this.serving.get();
			}

			void release() {
				this.released.countDown();
			}

			/** A slow request: answers once the test releases it. */
			@GetMapping("/slow")
			String slow() throws InterruptedException {
				this.serving.incrementAndGet();
				this.released.await(60, TimeUnit.SECONDS);
				return "done";
			}

		}

	}

}
