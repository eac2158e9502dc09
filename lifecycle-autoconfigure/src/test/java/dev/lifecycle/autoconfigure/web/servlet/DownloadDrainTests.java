package dev.lifecycle.autoconfigure.web.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A response body still being written when the streams end is work, not a stream: a
 * download in flight at the signal is waited for within the web server's graceful budget
 * and arrives whole, chunked or with a length; one that outlives the budget is cut so
 * that its client sees a broken response, never a short 200, and the report is not clean.
 * Only event streams and NDJSON end with the streams, as on WebFlux.
 */
class DownloadDrainTests {

	/** 40 chunks of 1 KiB, one every 100 ms: 4 s, twice the drain delay. */
	private static final int CHUNKS = 40;

	@ParameterizedTest(name = "{0}, with a length: {1}")
	@CsvSource({ "tomcat, false", "jetty, true" })
	void aDownloadInFlightAtTheSignalOutlivesTheDrainDelayAndArrivesWhole(String server, boolean length)
			throws Exception {
		try (ConfigurableApplicationContext context = ServletDrainApplications.startOn(DownloadApplication.class,
				server, "lifecycle.drain-delay=1s")) {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			CompletableFuture<HttpResponse<byte[]>> download = get(context,
					"/download?chunks=" + CHUNKS + "&length=" + length);
			awaitFirstBytes(context);
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
			HttpResponse<byte[]> response = download.get(60, TimeUnit.SECONDS);
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).hasSize(CHUNKS * 1024);
			ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(60)).orElseThrow();
			assertThat(report.clean()).as(report.toString()).isTrue();
		}
	}

	/**
	 * The stop cuts the body under its client, which sees a broken response, never a
	 * short or empty 200.
	 */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "tomcat", "jetty" })
	void aDownloadThatOutlivesTheWebServersBudgetIsABrokenResponseAndTheReportIsNotClean(String server)
			throws Exception {
		try (ConfigurableApplicationContext context = cutDownload(server)) {
			assertThatExceptionOfType(ExecutionException.class).as("a cut body is no whole response")
				.isThrownBy(() -> this.cut.get(60, TimeUnit.SECONDS))
				.withCauseInstanceOf(IOException.class);
			ShutdownReport report = context.getBean(LifecycleManager.class)
				.awaitTermination(Duration.ofSeconds(60))
				.orElseThrow();
			assertThat(report.clean()).as(report.toString()).isFalse();
			assertThat(report.failedRequests()).as("the cut download, counted once").isEqualTo(1);
			assertThat(report.failedSteps()).contains("closing step 'web server graceful shutdown'",
					"closing step 'web server stop'");
		}
	}

	private CompletableFuture<HttpResponse<byte[]>> cut;

	/** A 30 s download begun before the signal, with a 1 s graceful budget. */
	private ConfigurableApplicationContext cutDownload(String server) {
		ConfigurableApplicationContext context = ServletDrainApplications.startOn(DownloadApplication.class, server,
				"lifecycle.drain-delay=500ms", "spring.lifecycle.timeout-per-shutdown-phase=1s");
		this.cut = get(context, "/download?chunks=300");
		awaitFirstBytes(context);
		context.getBean(LifecycleManager.class).triggerShutdown(ShutdownReason.SIGNAL, "test");
		return context;
	}

	private static CompletableFuture<HttpResponse<byte[]>> get(ConfigurableApplicationContext context, String path) {
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + ServletDrainApplications.port(context) + path))
			.timeout(Duration.ofSeconds(60))
			.build();
		return HttpClient.newHttpClient().sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
	}

	private static void awaitFirstBytes(ConfigurableApplicationContext context) {
		DownloadApplication.Downloads downloads = context.getBean(DownloadApplication.Downloads.class);
		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> downloads.chunksWritten() > 0);
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class DownloadApplication {

		@RestController
		static class Downloads {

			private final java.util.concurrent.atomic.AtomicInteger written = new java.util.concurrent.atomic.AtomicInteger();

			int chunksWritten() {
				return this.written.get();
			}

			/**
			 * A slow download: one 1 KiB chunk every 100 ms, with a length or chunked.
			 */
			@GetMapping("/download")
			ResponseEntity<StreamingResponseBody> download(@RequestParam int chunks,
					@RequestParam(defaultValue = "false") boolean length) {
				this.written.set(0);
				byte[] chunk = "x".repeat(1024).getBytes(StandardCharsets.US_ASCII);
				StreamingResponseBody body = (out) -> {
					for (int i = 0; i < chunks; i++) {
						out.write(chunk);
						out.flush();
						this.written.incrementAndGet();
						sleep();
					}
				};
				ResponseEntity.BodyBuilder response = ResponseEntity.ok()
					.contentType(MediaType.APPLICATION_OCTET_STREAM);
				if (length) {
					response.contentLength((long) chunks * chunk.length);
				}
				return response.body(body);
			}

			private static void sleep() throws IOException {
				try {
					Thread.sleep(100);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IOException(ex);
				}
			}

		}

	}

}
