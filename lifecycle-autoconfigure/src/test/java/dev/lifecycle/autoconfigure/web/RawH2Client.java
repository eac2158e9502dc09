package dev.lifecycle.autoconfigure.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.Frame;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.PingFrame;
import org.eclipse.jetty.http2.frames.PrefaceFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.http2.generator.Generator;
import org.eclipse.jetty.http2.parser.Parser;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;

/**
 * One cleartext HTTP/2 connection (prior knowledge) spoken frame by frame over a plain
 * socket: it records every frame the server sends, in order (GOAWAY and PING included),
 * so a test sees exactly what is on the wire; no HTTP/2 client library stands between the
 * test and the frames, deciding what to report or closing the connection on its own. It
 * acknowledges the server's SETTINGS and, unless told not to, its PINGs, as any client
 * must.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
public final class RawH2Client implements AutoCloseable {

	private final Socket socket;

	private final OutputStream output;

	private final Generator generator = new Generator(ByteBufferPool.NON_POOLING);

	private final List<Frame> frames = new CopyOnWriteArrayList<>();

	private final Map<Integer, Exchange> exchanges = new ConcurrentHashMap<>();

	private final String origin;

	private final boolean ackPings;

	private int nextStreamId = 1;

	private RawH2Client(int port, boolean ackPings) throws IOException {
		this.origin = "http://localhost:" + port;
		this.ackPings = ackPings;
		this.socket = new Socket("localhost", port);
		this.socket.setTcpNoDelay(true);
		this.output = this.socket.getOutputStream();
		synchronized (this.output) {
			this.output.write(PrefaceFrame.PREFACE_BYTES);
			write(new SettingsFrame(Map.of(), false));
		}
		Thread reader = new Thread(this::read, "raw-h2-reader-" + port);
		reader.setDaemon(true);
		reader.start();
	}

	/** A connection that acknowledges the server's PINGs, as every client must. */
	public static RawH2Client cleartext(int port) throws IOException {
		return new RawH2Client(port, true);
	}

	/**
	 * A connection that never acknowledges a PING: a client that is slow or stalled.
	 */
	public static RawH2Client withoutPingAcks(int port) throws IOException {
		return new RawH2Client(port, false);
	}

	/** Every frame the server sent so far, in the order it arrived. */
	public List<Frame> frames() {
		return List.copyOf(this.frames);
	}

	/** The GOAWAY frames the server sent so far, in order. */
	public List<GoAwayFrame> goAways() {
		return framesOf(GoAwayFrame.class);
	}

	/** The PING frames the server sent so far (not its acknowledgements of ours). */
	public List<PingFrame> pings() {
		return framesOf(PingFrame.class).stream().filter((ping) -> !ping.isReply()).toList();
	}

	private <T extends Frame> List<T> framesOf(Class<T> type) {
		return this.frames.stream()
			.flatMap((frame) -> type.isInstance(frame) ? Stream.of(type.cast(frame)) : Stream.empty())
			.toList();
	}

	/** A short description of the frames received, for assertion messages. */
	public String describe() {
		return this.frames.stream().map(RawH2Client::describe).toList().toString();
	}

	private static String describe(Frame frame) {
		if (frame instanceof GoAwayFrame goAway) {
			return "GOAWAY(" + goAway.getLastStreamId() + ", " + goAway.getError() + ")";
		}
		if (frame instanceof PingFrame ping) {
			return ping.isReply() ? "PING(ack)" : "PING";
		}
		if (frame instanceof ResetFrame reset) {
			return "RST_STREAM(" + reset.getStreamId() + ", " + reset.getError() + ")";
		}
		return frame.getType().name();
	}

	/**
	 * Opens a stream with a GET request; the future completes when the response ends and
	 * fails if the server resets the stream.
	 */
	public Request get(String path) throws IOException {
		MetaData.Request request = new MetaData.Request("GET", HttpURI.from(this.origin + path), HttpVersion.HTTP_2,
				HttpFields.EMPTY);
		synchronized (this.output) {
			int streamId = this.nextStreamId;
			this.nextStreamId += 2;
			Exchange exchange = new Exchange(streamId);
			this.exchanges.put(streamId, exchange);
			write(new HeadersFrame(streamId, request, null, true));
			return new Request(streamId, exchange.response);
		}
	}

	private void write(Frame frame) throws IOException {
		synchronized (this.output) {
			RetainableByteBuffer.Mutable buffer = new RetainableByteBuffer.DynamicCapacity();
			try {
				this.generator.control(buffer, frame);
				ByteBuffer bytes = buffer.getByteBuffer();
				byte[] array = new byte[bytes.remaining()];
				bytes.get(array);
				this.output.write(array);
				this.output.flush();
			}
			catch (org.eclipse.jetty.http2.hpack.HpackException ex) {
				throw new IOException(ex);
			}
			finally {
				buffer.release();
			}
		}
	}

	private void read() {
		Parser parser = new Parser(ByteBufferPool.NON_POOLING, 64 * 1024);
		parser.init(new Parser.Listener() {

			@Override
			public void onSettings(SettingsFrame frame) {
				RawH2Client.this.frames.add(frame);
				if (!frame.isReply()) {
					send(new SettingsFrame(Map.of(), true));
				}
			}

			@Override
			public void onPing(PingFrame frame) {
				RawH2Client.this.frames.add(frame);
				if (!frame.isReply() && RawH2Client.this.ackPings) {
					send(new PingFrame(frame.getPayload(), true));
				}
			}

			@Override
			public void onGoAway(GoAwayFrame frame) {
				RawH2Client.this.frames.add(frame);
			}

			@Override
			public void onHeaders(HeadersFrame frame) {
				RawH2Client.this.frames.add(frame);
				Exchange exchange = RawH2Client.this.exchanges.get(frame.getStreamId());
				if (exchange != null) {
					if (frame.getMetaData() instanceof MetaData.Response response) {
						exchange.status = response.getStatus();
					}
					if (frame.isEndStream()) {
						exchange.complete();
					}
				}
			}

			@Override
			public void onData(DataFrame frame) {
				RawH2Client.this.frames.add(frame);
				Exchange exchange = RawH2Client.this.exchanges.get(frame.getStreamId());
				if (exchange != null) {
					exchange.body.append(StandardCharsets.UTF_8.decode(frame.getByteBuffer().slice()));
					if (frame.isEndStream()) {
						exchange.complete();
					}
				}
			}

			@Override
			public void onReset(ResetFrame frame) {
				RawH2Client.this.frames.add(frame);
				Exchange exchange = RawH2Client.this.exchanges.get(frame.getStreamId());
				if (exchange != null) {
					exchange.response
						.completeExceptionally(new IllegalStateException("stream reset: " + describe(frame)));
				}
			}

			@Override
			public void onConnectionFailure(int error, String reason) {
				fail(new IllegalStateException("connection failure " + error + ": " + reason));
			}

		});
		byte[] bytes = new byte[16 * 1024];
		try (InputStream input = this.socket.getInputStream()) {
			int read;
			while ((read = input.read(bytes)) >= 0) {
				parser.parse(ByteBuffer.wrap(bytes, 0, read));
			}
			fail(new IllegalStateException("connection closed by the server"));
		}
		catch (IOException | RuntimeException ex) {
			fail(ex);
		}
	}

	private void fail(Exception ex) {
		this.exchanges.values().forEach((exchange) -> exchange.response.completeExceptionally(ex));
	}

	private void send(Frame frame) {
		try {
			write(frame);
		}
		catch (IOException ex) {
			// The connection closed: the reader sees it too.
		}
	}

	/** Whether the server closed the connection or it failed. */
	public boolean isClosed() {
		return this.socket.isClosed();
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/**
	 * A request on its stream.
	 *
	 * @param streamId the id of the stream the client opened
	 * @param response its response, once it ended
	 */
	public record Request(int streamId, CompletableFuture<Response> response) {
	}

	public record Response(int streamId, int status, String body) {
	}

	private static final class Exchange {

		private final int streamId;

		private final StringBuilder body = new StringBuilder();

		private final CompletableFuture<Response> response = new CompletableFuture<>();

		private volatile int status;

		Exchange(int streamId) {
			this.streamId = streamId;
		}

		void complete() {
			this.response.complete(new Response(this.streamId, this.status, this.body.toString()));
		}

	}

}
