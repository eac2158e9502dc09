package dev.lifecycle.sample.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;

import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad inputs get a 4xx with a JSON reason and change nothing: the log, the counts and the
 * offset are the same before and after. One process for all cases.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputIT {

	private static final int TEN_MB = 10 * 1024 * 1024;

	private Path work;

	private ChildJvm sample;

	private long rowsBefore;

	private String countsBefore;

	@BeforeAll
	void start(@TempDir Path work) throws Exception {
		this.work = work;
		this.sample = SampleApp.launch(this.work, this.work.resolve("data")).awaitReady();
		HttpResponse<String> accepted = this.sample.post("/events", "{\"id\":\"good-1\",\"key\":\"good\",\"value\":5}");
		assertThat(accepted.statusCode()).isEqualTo(202);
		assertThat(accepted.body()).contains("\"offset\":1").contains("\"duplicate\":false");
		org.awaitility.Awaitility.await().until(() -> this.sample.get("/counts/good").statusCode() == 200);
		this.rowsBefore = Verify.rowsIn(this.work.resolve("data").resolve("events.db"));
		this.countsBefore = this.sample.get("/counts").body();
	}

	@AfterAll
	void stop() throws Exception {
		// Nothing any case sent was written.
		assertThat(Verify.rowsIn(this.work.resolve("data").resolve("events.db"))).isEqualTo(this.rowsBefore)
			.isEqualTo(1);
		// The periodic checkpoint may move checkpointOffset meanwhile; what a client sees
		// must not change.
		assertThat(visibleState(this.sample.get("/counts").body())).isEqualTo(visibleState(this.countsBefore));
		this.sample.sigterm();
		assertThat(this.sample.awaitExit(Duration.ofSeconds(30))).isZero();
		this.sample.close();
	}

	private static String visibleState(String counts) {
		JsonNode json = Verify.JSON.readTree(counts);
		return json.get("offset") + " " + json.get("pipeline") + " " + json.get("keys");
	}

	static Stream<Arguments> badBodies() {
		return Stream.of(Arguments.of("malformed JSON", "{\"id\":\"x\",\"key\":\"k\",", 400, "malformed JSON"),
				Arguments.of("not JSON", "hello", 400, "malformed JSON"), Arguments.of("empty body", "", 400, "empty"),
				Arguments.of("JSON array", "[{\"id\":\"x\",\"key\":\"k\",\"value\":1}]", 400, "JSON object"),
				Arguments.of("missing id", "{\"key\":\"k\",\"value\":1}", 400, "'id' is missing"),
				Arguments.of("missing key", "{\"id\":\"x\",\"value\":1}", 400, "'key' is missing"),
				Arguments.of("missing value", "{\"id\":\"x\",\"key\":\"k\"}", 400, "'value' is missing"),
				Arguments.of("oversized id", "{\"id\":\"" + "i".repeat(129) + "\",\"key\":\"k\",\"value\":1}", 400,
						"the limit is 128"),
				Arguments.of("oversized key", "{\"id\":\"x\",\"key\":\"" + "k".repeat(257) + "\",\"value\":1}", 400,
						"the limit is 256"),
				Arguments.of("numeric id", "{\"id\":1,\"key\":\"k\",\"value\":1}", 400, "'id' must be a string"),
				Arguments.of("string value", "{\"id\":\"x\",\"key\":\"k\",\"value\":\"1\"}", 400,
						"'value' must be an integer"),
				Arguments.of("decimal value", "{\"id\":\"x\",\"key\":\"k\",\"value\":1.5}", 400,
						"'value' must be an integer"),
				Arguments.of("value out of range", "{\"id\":\"x\",\"key\":\"k\",\"value\":1e30}", 400,
						"'value' must be an integer"),
				Arguments.of("unknown field", "{\"id\":\"x\",\"key\":\"k\",\"value\":1,\"extra\":true}", 400,
						"unknown field"),
				Arguments.of("body over 64 KiB",
						"{\"id\":\"x\",\"key\":\"k\",\"value\":1,\"pad\":\"" + "p".repeat(70_000) + "\"}", 413,
						"exceeds the limit of 65536 bytes"),
				Arguments.of("id reused for another event", "{\"id\":\"good-1\",\"key\":\"good\",\"value\":6}", 409,
						"already used"));
	}

	@ParameterizedTest(name = "{0} -> {2}")
	@MethodSource("badBodies")
	void badBodyIsRejectedWithAReason(String name, String body, int status, String reason) throws Exception {
		HttpResponse<String> response = this.sample.post("/events", body);
		assertThat(response.statusCode()).isEqualTo(status);
		JsonNode json = Verify.JSON.readTree(response.body());
		assertThat(json.get("reason").stringValue()).contains(reason);
		assertThat(json.get("error").stringValue()).isNotBlank();
	}

	@Test
	void nonJsonContentTypeIsRejectedWith415() throws Exception {
		HttpRequest request = HttpRequest.newBuilder(this.sample.uri("/events"))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers.ofString("id=x&key=k&value=1"))
			.build();
		HttpResponse<String> response = ChildJvm.http().send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(415);
		assertThat(response.body()).contains("application/json");
	}

	@Test
	void repeatedEventIsAcknowledgedWithTheOriginalOffsetAndNotWrittenAgain() throws Exception {
		HttpResponse<String> response = this.sample.post("/events", "{\"id\":\"good-1\",\"key\":\"good\",\"value\":5}");
		assertThat(response.statusCode()).isEqualTo(202);
		assertThat(response.body()).contains("\"offset\":1").contains("\"duplicate\":true");
	}

	@Test
	void unknownKeyIs404WithAReason() throws Exception {
		HttpResponse<String> response = this.sample.get("/counts/never-seen");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.body()).contains("\"reason\"").contains("never-seen");
	}

	@Test
	void tenMegabyteBodyWithExpectContinueIsRefusedBeforeItIsSent() throws Exception {
		// What curl does for a large body: ask first. The 413 comes instead of "100
		// Continue", so the client never sends the 10 MB.
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", this.sample.port()), 2000);
			socket.setSoTimeout(10_000);
			socket.getOutputStream()
				.write(("POST /events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
						+ "Content-Length: " + TEN_MB + "\r\nExpect: 100-continue\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII));
			String response = readResponse(socket.getInputStream());
			assertThat(response).startsWith("HTTP/1.1 413")
				.contains("request body of 10485760 bytes exceeds the limit of 65536 bytes");
		}
	}

	@Test
	void tenMegabyteBodyWithContentLengthGets413WithoutBeingRead() throws Exception {
		String response = rawPost("Content-Length: " + TEN_MB + "\r\n", false);
		assertThat(response).startsWith("HTTP/1.1 413").contains("\"reason\"").contains("exceeds the limit");
	}

	@Test
	void tenMegabyteChunkedBodyGets413AfterTheLimitIsRead() throws Exception {
		String response = rawPost("Transfer-Encoding: chunked\r\n", true);
		assertThat(response).startsWith("HTTP/1.1 413").contains("\"reason\"").contains("exceeds the limit");
	}

	/**
	 * Sends a 10 MB body over a raw socket from a second thread while this one reads the
	 * answer, as a client that does not wait for {@code 100 Continue} would; write errors
	 * after the server gave up on the body are expected and ignored.
	 */
	private String rawPost(String framing, boolean chunked) throws Exception {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", this.sample.port()), 2000);
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(("POST /events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + framing
					+ "\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			Thread writer = new Thread(() -> {
				byte[] block = new byte[64 * 1024];
				Arrays.fill(block, (byte) ' ');
				try {
					for (int sent = 0; sent < TEN_MB; sent += block.length) {
						if (chunked) {
							out.write((Integer.toHexString(block.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
						}
						out.write(block);
						if (chunked) {
							out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
						}
					}
					if (chunked) {
						out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
					}
					out.flush();
				}
				catch (IOException ex) {
					// the server stopped reading: expected
				}
			}, "raw-body-writer");
			writer.setDaemon(true);
			writer.start();
			return readResponse(socket.getInputStream());
		}
	}

	/** Reads until the JSON body has arrived, the connection ends or 10 s pass. */
	private static String readResponse(InputStream in) throws IOException {
		ByteArrayOutputStream received = new ByteArrayOutputStream();
		byte[] buffer = new byte[8192];
		try {
			int n;
			while ((n = in.read(buffer)) > 0) {
				received.write(buffer, 0, n);
				if (received.toString(StandardCharsets.UTF_8).contains("}")) {
					break;
				}
			}
		}
		catch (SocketTimeoutException | java.net.SocketException ex) {
			// return what arrived
		}
		return received.toString(StandardCharsets.UTF_8);
	}

}
