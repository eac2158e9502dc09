package dev.lifecycle.sample.it;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Slow clients cannot starve the probes (finding 8 of the hardening issue), on a real
 * process: 300 connections to the application's port each send a request a byte every 5 s
 * (half of them in the headers, half in the body, which holds a Tomcat thread while it
 * waits); with the actuator on its own port ({@code management.server.port}, as the
 * Kubernetes configuration has it) liveness and readiness keep answering at once, the
 * connector's timeouts free the application's threads, and SIGTERM ends the process
 * promptly and cleanly.
 */
class SlowClientsIT {

	private static final int CONNECTIONS = 300;

	@TempDir
	Path work;

	@Test
	void probesOnTheManagementPortAnswerWhile300SlowClientsHoldTheApplicationPort() throws Exception {
		try (ChildJvm sample = SampleApp
			.launch(this.work.resolve("run"), this.work.resolve("data"), "--management.server.port=0")
			.awaitReady()) {
			assertThat(sample.managementPort()).isNotEqualTo(sample.port());
			List<Socket> slow = new ArrayList<>();
			try {
				for (int i = 0; i < CONNECTIONS; i++) {
					Socket socket = new Socket();
					socket.connect(new InetSocketAddress("127.0.0.1", sample.port()), 2000);
					slow.add(socket);
					// Half stop inside the headers, half inside a 1000-byte body.
					String head = (i % 2 == 0) ? "POST /events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
							: "POST /events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
									+ "Content-Length: 1000\r\n\r\n{\"id\":\"";
					socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
				}
				long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(12);
				long nextByte = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
				int probes = 0;
				while (System.nanoTime() < end) {
					if (System.nanoTime() >= nextByte) {
						for (Socket socket : slow) {
							trickle(socket);
						}
						nextByte += TimeUnit.SECONDS.toNanos(5);
					}
					long start = System.nanoTime();
					assertThat(sample.managementStatus("/actuator/health/liveness")).as("liveness").isEqualTo(200);
					assertThat(sample.managementStatus("/actuator/health/readiness")).as("readiness").isEqualTo(200);
					assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
						.as("both probes answered within")
						.isLessThan(2000);
					probes++;
					Thread.sleep(500);
				}
				assertThat(probes).isGreaterThan(8);
				// The connector's timeout has closed the trickling requests: the
				// application's port serves again.
				await().atMost(Duration.ofSeconds(15))
					.until(() -> sample.post("/events", "{\"id\":\"after-slow\",\"key\":\"k\",\"value\":1}")
						.statusCode() == 202);
				long sigterm = System.nanoTime();
				sample.sigterm();
				assertThat(sample.awaitExit(Duration.ofSeconds(60))).as("exit code").isZero();
				assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - sigterm))
					.as("seconds from SIGTERM to exit")
					.isLessThan(20);
			}
			finally {
				for (Socket socket : slow) {
					socket.close();
				}
			}
		}
	}

	/**
	 * One more byte; a connection the server has closed (its timeout) is expected and
	 * ignored.
	 */
	private static void trickle(Socket socket) {
		try {
			OutputStream out = socket.getOutputStream();
			out.write('x');
			out.flush();
		}
		catch (IOException ex) {
			// closed by the server's connection timeout
		}
	}

}
