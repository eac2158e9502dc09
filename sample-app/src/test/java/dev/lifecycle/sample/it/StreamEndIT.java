package dev.lifecycle.sample.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Server-sent event streams on {@code GET /counts/stream} through a real shutdown. */
class StreamEndIT {

	private static final Duration DRAIN_DELAY = Duration.ofSeconds(3);

	@TempDir
	Path work;

	@Test
	void openStreamsKeepStreamingThroughTheDrainDelayThenEndCleanlyAndNeverHoldTheShutdown() throws Exception {
		try (ChildJvm sample = SampleApp
			.launch(this.work, this.work.resolve("data"), "--lifecycle.drain-delay=" + DRAIN_DELAY.toSeconds() + "s")
			.awaitReady()) {
			List<Stream> streams = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				streams.add(Stream.open(sample));
			}
			await("a tick on every stream").atMost(Duration.ofSeconds(10))
				.until(() -> streams.stream().allMatch((stream) -> stream.events.get() >= 2));
			int[] before = streams.stream().mapToInt((stream) -> stream.events.get()).toArray();
			long sigterm = System.nanoTime();
			sample.sigterm();
			await("every stream ended").atMost(DRAIN_DELAY.plusSeconds(10))
				.until(() -> streams.stream().allMatch((stream) -> stream.endedAt.get() != 0));
			int exit = sample.awaitExit(Duration.ofSeconds(30));
			long exited = System.nanoTime();
			assertThat(exit).as("exit code; log:\n%s", sample.log()).isZero();
			for (int i = 0; i < streams.size(); i++) {
				Stream stream = streams.get(i);
				assertThat(stream.failure.get())
					.as("stream %d ends with the end of the response, not a broken connection", i)
					.isNull();
				assertThat(stream.events.get()).as("stream %d kept receiving events during the drain delay", i)
					.isGreaterThan(before[i]);
				assertThat(Duration.ofNanos(stream.endedAt.get() - sigterm))
					.as("stream %d ended at the drain delay's end", i)
					.isGreaterThanOrEqualTo(DRAIN_DELAY.minusMillis(500));
			}
			assertThat(Duration.ofNanos(exited - sigterm))
				.as("SIGTERM to exit with streams open; log:\n%s", sample.log())
				.isLessThan(DRAIN_DELAY.plusSeconds(15));
			assertThat(sample.log()).contains("Lifecycle: ending long-lived streams (the drain delay ended)");
		}
	}

	/** One {@code GET /counts/stream} read line by line on a thread of its own. */
	private static final class Stream {

		final AtomicInteger events = new AtomicInteger();

		final AtomicLong endedAt = new AtomicLong();

		final AtomicReference<IOException> failure = new AtomicReference<>();

		static Stream open(ChildJvm sample) throws IOException, InterruptedException {
			HttpResponse<InputStream> response = ChildJvm.http()
				.send(HttpRequest.newBuilder(sample.uri("/counts/stream"))
					.header("Accept", "text/event-stream")
					.build(), HttpResponse.BodyHandlers.ofInputStream());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
			Stream stream = new Stream();
			Thread reader = new Thread(() -> stream.read(response.body()), "sse-reader");
			reader.setDaemon(true);
			reader.start();
			return stream;
		}

		private void read(InputStream body) {
			try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
				String line;
				while ((line = lines.readLine()) != null) {
					if (line.equals("event:offset")) {
						this.events.incrementAndGet();
					}
				}
			}
			catch (IOException ex) {
				this.failure.set(ex);
			}
			finally {
				this.endedAt.set(System.nanoTime());
			}
		}

	}

}
