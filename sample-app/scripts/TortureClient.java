import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The torture script's client (JDK only, no dependencies).
 *
 * <pre>
 * load   BASE_URL PREFIX THREADS ACK_FILE STOP_FILE [hostile]
 *     Concurrent clients post events {id, key = id, value = 1..100} until STOP_FILE exists; every
 *     acknowledged event (202) is appended to ACK_FILE as "id value offset" the moment the 202 arrives.
 *     Every tenth event is sent twice (a retry); the repeat must get the same offset.
 *     With "hostile", every third request of every client is hostile instead: a value that would
 *     overflow a sum (Long.MIN_VALUE, 1e30, one past the limit), an id with a lone surrogate, an id
 *     reused for another value, malformed JSON, an unknown field, a wrong type. Each must get its 4xx
 *     (or 503 while the service stops); a 202 or a 5xx is a violation. Hostile keys start with "hostile".
 *     Exit 0, or 1 if a retry got a different offset or a hostile request was not refused.
 * verify BASE_URL ACK_FILE...
 *     GET /counts and check every acknowledged event is counted exactly once (count 1, sum = its value)
 *     and no key at all is counted more than once, and no key of a hostile request is counted at all.
 *     Exit 0, or 1 with the problems listed.
 * </pre>
 */
public final class TortureClient {

	private static final Pattern OFFSET = Pattern.compile("\"offset\"\\s*:\\s*(\\d+)");

	private static final Pattern NEXT = Pattern.compile("\"next\"\\s*:\\s*\"([^\"]+)\"");

	private static final Pattern KEY = Pattern.compile("\"([^\"]+)\":\\{\"sum\":(-?\\d+),\"count\":(\\d+)\\}");

	private static final HttpClient HTTP = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(2))
		.build();

	public static void main(String[] args) throws Exception {
		if (args.length >= 6 && args[0].equals("load")) {
			boolean hostile = args.length >= 7 && args[6].equals("hostile");
			System.exit(load(args[1], args[2], Integer.parseInt(args[3]), Path.of(args[4]), Path.of(args[5]), hostile));
		}
		if (args.length >= 3 && args[0].equals("verify")) {
			List<Path> ackFiles = new ArrayList<>();
			for (int i = 2; i < args.length; i++) {
				ackFiles.add(Path.of(args[i]));
			}
			System.exit(verify(args[1], ackFiles));
		}
		System.err.println("usage: TortureClient load BASE_URL PREFIX THREADS ACK_FILE STOP_FILE | verify BASE_URL ACK_FILE...");
		System.exit(2);
	}

	// ---- load ----------------------------------------------------------------------------------

	private static int load(String base, String prefix, int threads, Path ackFile, Path stopFile, boolean hostile)
			throws Exception {
		URI uri = URI.create(base + "/events");
		AtomicLong hostileRefused = new AtomicLong();
		AtomicLong acked = new AtomicLong();
		AtomicLong refused = new AtomicLong();
		AtomicLong failed = new AtomicLong();
		AtomicLong violations = new AtomicLong();
		try (BufferedWriter out = Files.newBufferedWriter(ackFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
				StandardOpenOption.TRUNCATE_EXISTING)) {
			List<Thread> workers = new ArrayList<>();
			for (int w = 0; w < threads; w++) {
				int worker = w;
				Thread thread = new Thread(() -> {
					long seq = 0;
					String lastAcked = null;
					while (!Files.exists(stopFile)) {
						seq++;
						if (hostile && seq % 3 == 0) {
							String attack = hostileBody(prefix + "-" + worker + "-" + seq, lastAcked);
							int status = status(uri, attack);
							if (status == 400 || status == 409 || status == 413 || status == 503) {
								hostileRefused.incrementAndGet();
							}
							else if (status > 0) {
								violations.incrementAndGet();
								System.err.println("VIOLATION: hostile request answered " + status + ": " + attack);
							}
							continue;
						}
						String id = prefix + "-" + worker + "-" + seq;
						long value = ThreadLocalRandom.current().nextLong(1, 101);
						String body = "{\"id\":\"" + id + "\",\"key\":\"" + id + "\",\"value\":" + value + "}";
						long offset = send(uri, body, refused, failed);
						if (offset < 0) {
							continue;
						}
						acked.incrementAndGet();
						lastAcked = id;
						synchronized (out) {
							try {
								out.write(id + " " + value + " " + offset + "\n");
								out.flush();
							}
							catch (IOException ex) {
								throw new IllegalStateException(ex);
							}
						}
						if (seq % 10 == 0) {
							long again = send(uri, body, refused, failed);
							if (again >= 0 && again != offset) {
								violations.incrementAndGet();
								System.err.println("VIOLATION: " + id + " acknowledged at offset " + offset
										+ " and on retry at " + again);
							}
						}
					}
				}, "load-" + w);
				workers.add(thread);
				thread.start();
			}
			for (Thread worker : workers) {
				worker.join();
			}
		}
		System.out.println("client " + prefix + ": acked=" + acked + " refused(503)=" + refused + " failed(io)=" + failed
				+ (hostile ? " hostile-refused=" + hostileRefused : "") + " violations=" + violations);
		return (violations.get() == 0) ? 0 : 1;
	}

	/** A request that must be refused; keys of the ones that parse start with "hostile". */
	private static String hostileBody(String id, String lastAcked) {
		int pick = ThreadLocalRandom.current().nextInt(9);
		return switch (pick) {
			case 0 -> "{\"id\":\"" + id + "\",\"key\":\"hostile-min\",\"value\":-9223372036854775808}";
			case 1 -> "{\"id\":\"" + id + "\",\"key\":\"hostile-big\",\"value\":1e30}";
			case 2 -> "{\"id\":\"" + id + "\",\"key\":\"hostile-over\",\"value\":1000000001}";
			case 3 -> "{\"id\":\"" + id + "\\ud800\",\"key\":\"hostile-surrogate\",\"value\":1}";
			case 4 -> "{\"id\":\"\\udc00" + id + "\",\"key\":\"hostile-surrogate\",\"value\":1}";
			case 5 -> (lastAcked != null)
					? "{\"id\":\"" + lastAcked + "\",\"key\":\"hostile-reuse\",\"value\":1}"
					: "{\"id\":\"" + id + "\",\"key\":\"hostile-type\",\"value\":\"1\"}";
			case 6 -> "{\"id\":\"" + id + "\",\"key\":\"hostile-json\",";
			case 7 -> "{\"id\":\"" + id + "\",\"key\":\"hostile-field\",\"value\":1,\"admin\":true}";
			default -> "{\"id\":\"" + id + "\",\"key\":\"hostile/slash\",\"value\":1}";
		};
	}

	/** Posts; the status, or -1 when the request failed (the server is being killed, say). */
	private static int status(URI uri, String body) {
		HttpRequest request = HttpRequest.newBuilder(uri)
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		try {
			return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

	/** Posts; the acknowledged offset, or -1. */
	private static long send(URI uri, String body, AtomicLong refused, AtomicLong failed) {
		HttpRequest request = HttpRequest.newBuilder(uri)
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		try {
			HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() == 202) {
				Matcher matcher = OFFSET.matcher(response.body());
				if (matcher.find()) {
					return Long.parseLong(matcher.group(1));
				}
			}
			else if (response.statusCode() == 503) {
				refused.incrementAndGet();
			}
			else {
				System.err.println("unexpected " + response.statusCode() + ": " + response.body());
			}
		}
		catch (IOException ex) {
			failed.incrementAndGet();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		try {
			Thread.sleep(20);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return -1;
	}

	// ---- verify --------------------------------------------------------------------------------

	private static int verify(String base, List<Path> ackFiles) throws Exception {
		Map<String, long[]> acked = new HashMap<>();
		for (Path file : ackFiles) {
			for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
				String[] parts = line.trim().split(" ");
				if (parts.length == 3) {
					acked.put(parts[0], new long[] { Long.parseLong(parts[1]), Long.parseLong(parts[2]) });
				}
			}
		}
		// GET /counts is paginated: follow "next" until the last page. The first page's offset is what the
		// check below uses (the pipeline only moves forward, so later pages are at least as far).
		Map<String, long[]> counts = new HashMap<>();
		long processed = -1;
		String after = null;
		do {
			String query = "/counts?limit=10000" + ((after != null) ? "&after=" + URLEncoder.encode(after, StandardCharsets.UTF_8) : "");
			HttpResponse<String> response = HTTP.send(
					HttpRequest.newBuilder(URI.create(base + query)).timeout(Duration.ofSeconds(60)).build(),
					HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				System.out.println("verify: GET " + query + " answered " + response.statusCode());
				return 1;
			}
			Matcher matcher = KEY.matcher(response.body());
			while (matcher.find()) {
				counts.put(matcher.group(1), new long[] { Long.parseLong(matcher.group(2)), Long.parseLong(matcher.group(3)) });
			}
			if (processed < 0) {
				Matcher offset = OFFSET.matcher(response.body());
				processed = offset.find() ? Long.parseLong(offset.group(1)) : -1;
			}
			Matcher next = NEXT.matcher(response.body());
			after = next.find() ? next.group(1) : null;
		}
		while (after != null);
		List<String> problems = new ArrayList<>();
		long maxOffset = 0;
		for (Map.Entry<String, long[]> ack : acked.entrySet()) {
			long[] count = counts.get(ack.getKey());
			maxOffset = Math.max(maxOffset, ack.getValue()[1]);
			if (count == null) {
				problems.add("LOST " + ack.getKey() + " (acknowledged at offset " + ack.getValue()[1] + ")");
			}
			else if (count[1] != 1 || count[0] != ack.getValue()[0]) {
				problems.add("WRONG " + ack.getKey() + ": count " + count[1] + ", sum " + count[0] + "; sent once with "
						+ ack.getValue()[0]);
			}
		}
		long unacknowledged = 0;
		for (Map.Entry<String, long[]> count : counts.entrySet()) {
			if (count.getKey().startsWith("hostile")) {
				problems.add("HOSTILE " + count.getKey() + " was counted: a request that must be refused was stored");
			}
			if (count.getValue()[1] != 1) {
				problems.add("DOUBLE " + count.getKey() + " counted " + count.getValue()[1] + " times");
			}
			if (!acked.containsKey(count.getKey())) {
				unacknowledged++;
			}
		}
		if (processed < maxOffset) {
			problems.add("processed offset " + processed + " is behind the highest acknowledged offset " + maxOffset);
		}
		System.out.println("verify: " + acked.size() + " acknowledged event(s), " + counts.size() + " key(s) counted ("
				+ unacknowledged + " committed but never acknowledged: the process died before the 202), offset "
				+ processed + ", " + problems.size() + " problem(s)");
		problems.stream().limit(20).forEach((p) -> System.out.println("  " + p));
		return problems.isEmpty() ? 0 : 1;
	}

}
