import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Pre-stop latency probe (BENCHMARKS.md item 4). For each target "port:prestop-file", one after the
 * other: waits until GET /actuator/health/readiness answers 200, lets the app idle for the settle
 * time, creates the pre-stop file and polls readiness back to back (about 1 ms apart, one
 * keep-alive connection) until it answers anything but 200. Prints one line per target:
 * "port latency_ms status polls" where latency runs from just before the file is created to the
 * arrival of the first non-200 answer.
 *
 * Usage: java PrestopProbe.java settle_ms port:file [port:file ...]
 */
public class PrestopProbe {

	public static void main(String[] args) throws Exception {
		long settleMillis = Long.parseLong(args[0]);
		HttpClient client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(2))
			.build();
		targets: for (int i = 1; i < args.length; i++) {
			int colon = args[i].indexOf(':');
			int port = Integer.parseInt(args[i].substring(0, colon));
			Path file = Path.of(args[i].substring(colon + 1));
			HttpRequest readiness = HttpRequest
				.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness"))
				.timeout(Duration.ofSeconds(5))
				.build();
			long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
			while (status(client, readiness) != 200) {
				if (System.nanoTime() > deadline) {
					System.out.println(port + " NaN not-ready 0");
					continue targets;
				}
				Thread.sleep(50);
			}
			// warm the connection and the endpoint a little, then let the app idle
			for (int w = 0; w < 20; w++) {
				status(client, readiness);
			}
			Thread.sleep(settleMillis);
			long start = System.nanoTime();
			Files.createFile(file);
			int status;
			int polls = 0;
			long end;
			while (true) {
				status = status(client, readiness);
				end = System.nanoTime();
				polls++;
				if (status != 200 || end - start > 10_000_000_000L) {
					break;
				}
				Thread.sleep(1);
			}
			System.out.printf("%d %.3f %d %d%n", port, (end - start) / 1e6, status, polls);
		}
	}

	private static int status(HttpClient client, HttpRequest request) {
		try {
			return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
		}
		catch (Exception ex) {
			return -1;
		}
	}

}
