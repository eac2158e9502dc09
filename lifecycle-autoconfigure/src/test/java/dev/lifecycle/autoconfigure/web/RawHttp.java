package dev.lifecycle.autoconfigure.web;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One HTTP/1.1 exchange on a socket kept open between requests, so a test sees exactly
 * what a keep-alive client sees: the status, the headers (such as
 * {@code Connection: close}) and whether the server closed the connection afterwards.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
public final class RawHttp {

	private RawHttp() {
	}

	public static Response get(Socket socket, String path, String... requestHeaders) throws IOException {
		OutputStream out = socket.getOutputStream();
		StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n");
		for (String header : requestHeaders) {
			request.append(header).append("\r\n");
		}
		out.write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
		out.flush();
		// One byte at a time: nothing of a later response may be buffered away from the
		// socket.
		BufferedReader in = new BufferedReader(
				new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII), 1);
		String statusLine = in.readLine();
		List<String> headers = new ArrayList<>();
		int length = -1;
		for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
			headers.add(line);
			if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
				length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
			}
		}
		Response response = new Response(Integer.parseInt(statusLine.split(" ")[1]), headers, "");
		String body;
		if (response.header("transfer-encoding").equalsIgnoreCase("chunked")) {
			body = chunks(in);
		}
		else if (length >= 0) {
			body = read(in, length);
		}
		else {
			boolean bodyless = response.status() < 200 || response.status() == 204 || response.status() == 304;
			body = bodyless ? "" : readToTheEnd(in);
		}
		return new Response(response.status(), headers, body);
	}

	private static String read(BufferedReader in, int length) throws IOException {
		char[] body = new char[length];
		int read = 0;
		while (read < length) {
			int count = in.read(body, read, length - read);
			if (count < 0) {
				throw new java.io.EOFException("the connection closed after " + read + " of the " + length
						+ " bytes its Content-Length announced");
			}
			read += count;
		}
		return new String(body);
	}

	/** A body the server ends by closing the connection. */
	private static String readToTheEnd(BufferedReader in) throws IOException {
		StringBuilder body = new StringBuilder();
		for (int c = in.read(); c != -1; c = in.read()) {
			body.append((char) c);
		}
		return body.toString();
	}

	/**
	 * A chunked body, up to and including its last (empty) chunk and the blank line after
	 * it.
	 */
	private static String chunks(BufferedReader in) throws IOException {
		StringBuilder body = new StringBuilder();
		for (int size = Integer.parseInt(in.readLine().trim(), 16); size > 0; size = Integer
			.parseInt(in.readLine().trim(), 16)) {
			body.append(read(in, size));
			in.readLine();
		}
		in.readLine();
		return body.toString();
	}

	public record Response(int status, List<String> headers, String body) {

		public String header(String name) {
			return this.headers.stream()
				.filter((line) -> line.toLowerCase(Locale.ROOT).startsWith(name + ":"))
				.map((line) -> line.substring(line.indexOf(':') + 1).trim())
				.findFirst()
				.orElse("");
		}

		/**
		 * How the end of the body is told: its length, its last chunk, or the
		 * connection's close.
		 */
		public String framing() {
			if (header("transfer-encoding").equalsIgnoreCase("chunked")) {
				return "chunked";
			}
			return header("content-length").isEmpty() ? "close-delimited" : "content-length";
		}

	}

}
