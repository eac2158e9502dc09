package dev.lifecycle.scale.app;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One pre-stop latency sample against a running application, shared by the in-process
 * harness and the fresh-JVM probe so both measure the same thing: wait for readiness 200,
 * warm the connection, idle for the settle time, then take the time from just before the
 * pre-stop file is created to the arrival of the first answer of
 * {@code /actuator/health/readiness} that is not 200, polling about every millisecond
 * over one keep-alive connection.
 */
final class PrestopMeasurement {

	private static final long GIVE_UP_NANOS = Duration.ofSeconds(10).toNanos();

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(2))
		.build();

	private final long settleMillis;

	PrestopMeasurement(long settleMillis) {
		this.settleMillis = settleMillis;
	}

	/**
	 * Takes one sample.
	 * @return the sample, or {@code null} if readiness never answered 200 within the
	 * ready timeout
	 */
	Sample measure(int port, Path file, Duration readyTimeout) throws IOException, InterruptedException {
		HttpRequest readiness = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness"))
			.timeout(Duration.ofSeconds(5))
			.build();
		long readyDeadline = System.nanoTime() + readyTimeout.toNanos();
		while (status(readiness) != 200) {
			if (System.nanoTime() > readyDeadline) {
				return null;
			}
			Thread.sleep(10);
		}
		for (int warm = 0; warm < 20; warm++) {
			status(readiness);
		}
		Thread.sleep(this.settleMillis);
		long start = System.nanoTime();
		Files.createFile(file);
		int polls = 0;
		while (true) {
			int status = status(readiness);
			long elapsed = System.nanoTime() - start;
			polls++;
			if (status != 200 || elapsed > GIVE_UP_NANOS) {
				return new Sample(elapsed / 1e6, status, polls);
			}
			Thread.sleep(1);
		}
	}

	private int status(HttpRequest request) {
		try {
			return this.client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

	/**
	 * One sample: latency in milliseconds, the first non-200 status (-1: no answer),
	 * polls sent.
	 */
	record Sample(double millis, int status, int polls) {

		String line() {
			return String.format("%.3f %d %d", this.millis, this.status, this.polls);
		}

	}

}
