package dev.lifecycle.scenarios;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.util.ReferenceCountUtil;

/**
 * One cleartext HTTP/2 connection (prior knowledge) on Netty's frame codec, which notes
 * the GOAWAY and PING frames the server sends, in order, with when they came. Either deaf
 * (it never answers a PING and goes on opening streams after a GOAWAY: the gRPC client
 * that ignores everything a server says to end it) or one that answers PINGs, as every
 * client must (what the GOAWAY form is read with). A request ends as its
 * {@code grpc-status} ({@code "0"} served) or HTTP status, {@code "reset"},
 * {@code "not sent"} (the codec refused a stream above a GOAWAY's last stream id),
 * {@code "no answer"}, or {@code "closed"} when the connection is gone.
 * <p>
 * The autoconfigure module's {@code RawH2Client} reads the same frames with Jetty's
 * parser over a socket; test classes are not shared between modules, so this one builds
 * on Netty, which this module's gRPC clients already use.
 */
final class RawH2Connection implements AutoCloseable {

	private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

	private final Channel connection;

	private final int port;

	private final LongSupplier clock;

	/** The GOAWAY and PING frames the server sent, in the order they came. */
	final List<Frame> frames = new CopyOnWriteArrayList<>();

	/** The id of the last stream the connection opened. */
	volatile int lastStreamId = -1;

	/** When the first GOAWAY arrived, on the clock. */
	final CompletableFuture<Long> goAway = new CompletableFuture<>();

	private RawH2Connection(int port, boolean answersPings, LongSupplier clock) throws InterruptedException {
		this.port = port;
		this.clock = clock;
		this.connection = new Bootstrap().group(this.loop)
			.channel(NioSocketChannel.class)
			.handler(new ChannelInitializer<Channel>() {
				@Override
				protected void initChannel(Channel channel) {
					channel.pipeline()
						.addLast(Http2FrameCodecBuilder.forClient().autoAckPingFrame(answersPings).build(),
								new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()), new Noting());
				}
			})
			.connect("localhost", port)
			.sync()
			.channel();
	}

	/**
	 * A connection that never answers a PING and opens streams after a GOAWAY.
	 * @param clock when a frame came (milliseconds)
	 */
	static RawH2Connection deaf(int port, LongSupplier clock) throws InterruptedException {
		return new RawH2Connection(port, false, clock);
	}

	/**
	 * A connection that answers PINGs.
	 * @param clock when a frame came (milliseconds)
	 */
	static RawH2Connection answeringPings(int port, LongSupplier clock) throws InterruptedException {
		return new RawH2Connection(port, true, clock);
	}

	/**
	 * Calls the gRPC method at {@code path} with an empty message and waits up to two
	 * seconds for its end.
	 */
	String call(String path) {
		Http2Headers headers = headers("POST", path);
		headers.set("content-type", "application/grpc");
		headers.set("te", "trailers");
		// One empty message: not compressed, length 0.
		return exchange(headers, new byte[5], 2);
	}

	/** Sends a GET on a new stream and waits up to {@code seconds} for its end. */
	String get(String path, int seconds) {
		return exchange(headers("GET", path), null, seconds);
	}

	private Http2Headers headers(String method, String path) {
		return new DefaultHttp2Headers().method(method).scheme("http").path(path).authority("localhost:" + this.port);
	}

	private String exchange(Http2Headers headers, byte[] body, int seconds) {
		if (!this.connection.isActive()) {
			return "closed";
		}
		CompletableFuture<String> end = new CompletableFuture<>();
		try {
			Http2StreamChannel stream = new Http2StreamChannelBootstrap(this.connection).handler(new End(end))
				.open()
				.get(2, TimeUnit.SECONDS);
			ChannelFuture sent;
			if (body == null) {
				sent = stream.writeAndFlush(new DefaultHttp2HeadersFrame(headers, true));
			}
			else {
				stream.write(new DefaultHttp2HeadersFrame(headers));
				sent = stream.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body), true));
			}
			// Netty's codec itself refuses a stream above a GOAWAY's last stream id.
			sent.addListener((written) -> {
				if (written.isSuccess()) {
					this.lastStreamId = stream.stream().id();
				}
				else {
					end.complete("not sent");
				}
			});
			return end.get(seconds, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			return this.connection.isActive() ? "no answer" : "closed";
		}
	}

	/** The frames noted so far from the signal on, for messages. */
	String describe() {
		return this.frames.stream().filter((frame) -> frame.atMs() >= 0).toList().toString();
	}

	@Override
	public void close() {
		this.connection.close();
		this.loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
	}

	/**
	 * A GOAWAY (its last stream id and error code) or a PING the server sent, and when.
	 */
	record Frame(String type, int lastStreamId, long errorCode, long atMs) {

		boolean goAway() {
			return this.type.equals("GOAWAY");
		}

		@Override
		public String toString() {
			return goAway() ? "GOAWAY(" + this.lastStreamId + ", " + this.errorCode + ") at " + this.atMs + " ms"
					: this.type + " at " + this.atMs + " ms";
		}

	}

	/** Notes the GOAWAY and PING frames, and answers nothing itself. */
	private final class Noting extends ChannelInboundHandlerAdapter {

		@Override
		public void channelRead(ChannelHandlerContext context, Object message) {
			long at = RawH2Connection.this.clock.getAsLong();
			if (message instanceof Http2GoAwayFrame goAway) {
				RawH2Connection.this.frames.add(new Frame("GOAWAY", goAway.lastStreamId(), goAway.errorCode(), at));
				RawH2Connection.this.goAway.complete(at);
			}
			else if (message instanceof Http2PingFrame ping && !ping.ack()) {
				RawH2Connection.this.frames.add(new Frame("PING", -1, -1, at));
			}
			ReferenceCountUtil.release(message);
		}

	}

	/** How one request ended. */
	private static final class End extends ChannelInboundHandlerAdapter {

		private final CompletableFuture<String> end;

		private String status = "no status";

		End(CompletableFuture<String> end) {
			this.end = end;
		}

		@Override
		public void channelRead(ChannelHandlerContext context, Object message) {
			if (message instanceof Http2HeadersFrame headers) {
				CharSequence grpc = headers.headers().get("grpc-status");
				CharSequence http = headers.headers().status();
				this.status = (grpc != null) ? grpc.toString() : (http != null) ? http.toString() : this.status;
			}
			if (message instanceof Http2ResetFrame) {
				this.end.complete("reset");
			}
			else if ((message instanceof Http2HeadersFrame headers && headers.isEndStream())
					|| (message instanceof Http2DataFrame data && data.isEndStream())) {
				this.end.complete(this.status);
			}
			ReferenceCountUtil.release(message);
		}

		@Override
		public void channelInactive(ChannelHandlerContext context) {
			this.end.complete("closed");
		}

	}

}
