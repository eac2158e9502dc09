package dev.lifecycle.scenarios;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTTP/1.1 requests pipelined on one connection in one write, read until the server
 * closes the connection or 10 s pass quietly.
 */
final class Pipelining {

	static final int REQUESTS = 6;

	private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");

	private Pipelining() {
	}

	/** The answers, as received, followed by a note when the connection stayed open. */
	static String send(int port, String path) {
		String requests = ("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").repeat(REQUESTS);
		ByteArrayOutputStream received = new ByteArrayOutputStream();
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(requests.getBytes(StandardCharsets.US_ASCII));
			socket.getOutputStream().flush();
			InputStream in = socket.getInputStream();
			byte[] buffer = new byte[8192];
			try {
				for (int read = in.read(buffer); read != -1; read = in.read(buffer)) {
					received.write(buffer, 0, read);
				}
			}
			catch (SocketTimeoutException ex) {
				received.writeBytes("\n[the connection stayed open]".getBytes(StandardCharsets.US_ASCII));
			}
		}
		catch (IOException ex) {
			// Reset or refused: what arrived before counts.
			received.writeBytes(("\n[" + ex + "]").getBytes(StandardCharsets.US_ASCII));
		}
		return received.toString(StandardCharsets.US_ASCII);
	}

	/**
	 * Whether every request was answered 200, only the last answer said
	 * {@code Connection: close}, and the server then closed the connection.
	 */
	static boolean closesAfterTheLast(String answers) {
		String lower = answers.toLowerCase(Locale.ROOT);
		return statuses(answers).equals(List.of(200, 200, 200, 200, 200, 200))
				&& lower.split("connection: close", -1).length == 2
				&& lower.lastIndexOf("connection: close") > answers.lastIndexOf("HTTP/1.1 200")
				&& !answers.contains("\n[");
	}

	static List<Integer> statuses(String answers) {
		List<Integer> statuses = new ArrayList<>();
		Matcher matcher = STATUS_LINE.matcher(answers);
		while (matcher.find()) {
			statuses.add(Integer.parseInt(matcher.group(1)));
		}
		return statuses;
	}

}
