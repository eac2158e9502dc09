package dev.lifecycle.autoconfigure.web;

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
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * One HTTP/2 connection on Jetty's low-level HTTP/2 client, which shows the GOAWAY frames
 * the server sends: cleartext with prior knowledge (h2c), or over TLS with h2 negotiated
 * by ALPN.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
public final class H2Client implements AutoCloseable {

	private final HTTP2Client client = new HTTP2Client();

	private final List<GoAwayFrame> goAways = new CopyOnWriteArrayList<>();

	private final Session session;

	private final String origin;

	private H2Client(int port, boolean tls) throws Exception {
		this.origin = (tls ? "https" : "http") + "://localhost:" + port;
		// The test server's certificate is self-signed; what is tested is the HTTP/2
		// layer above TLS.
		SslContextFactory.Client trustAll = new SslContextFactory.Client(true);
		this.client.addBean(trustAll);
		this.client.start();
		InetSocketAddress address = new InetSocketAddress("localhost", port);
		Session.Listener listener = new Session.Listener() {
			@Override
			public void onGoAway(Session session, GoAwayFrame frame) {
				H2Client.this.goAways.add(frame);
			}
		};
		this.session = (tls ? this.client.connect(trustAll, address, listener) : this.client.connect(address, listener))
			.get(5, TimeUnit.SECONDS);
	}

	/** An h2c connection (HTTP/2 with prior knowledge, no TLS). */
	public static H2Client cleartext(int port) throws Exception {
		return new H2Client(port, false);
	}

	/**
	 * A TLS connection on which ALPN negotiated h2; it fails to open if the server offers
	 * no h2.
	 */
	public static H2Client tls(int port) throws Exception {
		return new H2Client(port, true);
	}

	/** The GOAWAY frames received so far on this connection. */
	public List<GoAwayFrame> goAways() {
		return this.goAways;
	}

	public Response get(String path) throws Exception {
		MetaData.Request request = new MetaData.Request("GET", HttpURI.from(this.origin + path), HttpVersion.HTTP_2,
				HttpFields.EMPTY);
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

	public record Response(int streamId, int status, String body) {
	}

}
