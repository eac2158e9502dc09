package dev.lifecycle.autoconfigure;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;

/**
 * One cleartext HTTP/2 connection with prior knowledge (h2c), on Jetty's low-level HTTP/2
 * client, which shows the GOAWAY frames the server sends.
 */
final class H2cClient implements AutoCloseable {

	private final HTTP2Client client = new HTTP2Client();

	private final List<GoAwayFrame> goAways = new CopyOnWriteArrayList<>();

	private final Session session;

	private final int port;

	H2cClient(int port) throws Exception {
		this.port = port;
		this.client.start();
		this.session = this.client.connect(new InetSocketAddress("localhost", port), new Session.Listener() {
			@Override
			public void onGoAway(Session session, GoAwayFrame frame) {
				H2cClient.this.goAways.add(frame);
			}
		}).get(5, TimeUnit.SECONDS);
	}

	/** The GOAWAY frames received so far on this connection. */
	List<GoAwayFrame> goAways() {
		return this.goAways;
	}

	Response get(String path) throws Exception {
		MetaData.Request request = new MetaData.Request("GET", HttpURI.from("http://localhost:" + this.port + path),
				HttpVersion.HTTP_2, HttpFields.EMPTY);
		CompletableFuture<Response> response = new CompletableFuture<>();
		StringBuilder body = new StringBuilder();
		int[] status = new int[1];
		Stream stream = this.session.newStream(new HeadersFrame(request, null, true), new Stream.Listener() {
			@Override
			public void onHeaders(Stream stream, HeadersFrame frame) {
				if (frame.getMetaData() instanceof MetaData.Response metaData) {
					status[0] = metaData.getStatus();
				}
				if (frame.isEndStream()) {
					response.complete(new Response(stream.getId(), status[0], body.toString()));
				}
				else {
					stream.demand();
				}
			}

			@Override
			public void onDataAvailable(Stream stream) {
				Stream.Data data = stream.readData();
				if (data == null) {
					stream.demand();
					return;
				}
				body.append(StandardCharsets.UTF_8.decode(data.frame().getByteBuffer()));
				data.release();
				if (data.frame().isEndStream()) {
					response.complete(new Response(stream.getId(), status[0], body.toString()));
				}
				else {
					stream.demand();
				}
			}

			@Override
			public void onReset(Stream stream, org.eclipse.jetty.http2.frames.ResetFrame frame,
					org.eclipse.jetty.util.Callback callback) {
				response.completeExceptionally(new IllegalStateException("stream reset: " + frame));
				callback.succeeded();
			}
		}).get(5, TimeUnit.SECONDS);
		return response.get(10, TimeUnit.SECONDS);
	}

	@Override
	public void close() throws Exception {
		this.client.stop();
	}

	record Response(int streamId, int status, String body) {
	}

}
