package dev.lifecycle.scenarios;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
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
 * A gRPC client on one raw HTTP/2 connection that hears nothing a server says to end it:
 * it never answers a PING and goes on opening calls after a GOAWAY. A unary call ends as
 * its {@code grpc-status} ({@code "0"} served), {@code "reset"}, or {@code "closed"} when
 * the connection is gone.
 */
final class DeafClient implements AutoCloseable {

	private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

	private final Channel connection;

	private final int port;

	/** When the GOAWAY arrived (System.nanoTime). */
	final CompletableFuture<Long> goAway = new CompletableFuture<>();

	DeafClient(int port) throws InterruptedException {
		this.port = port;
		this.connection = new Bootstrap().group(this.loop)
			.channel(NioSocketChannel.class)
			.handler(new ChannelInitializer<Channel>() {
				@Override
				protected void initChannel(Channel channel) {
					channel.pipeline()
						.addLast(Http2FrameCodecBuilder.forClient().autoAckPingFrame(false).build(),
								new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()), new Ignoring());
				}
			})
			.connect("localhost", port)
			.sync()
			.channel();
	}

	/**
	 * Calls {@code path} with an empty message and waits up to two seconds for its end.
	 */
	String call(String path) {
		if (!this.connection.isActive()) {
			return "closed";
		}
		CompletableFuture<String> end = new CompletableFuture<>();
		try {
			Http2StreamChannel stream = new Http2StreamChannelBootstrap(this.connection).handler(new End(end))
				.open()
				.get(2, TimeUnit.SECONDS);
			Http2Headers headers = new DefaultHttp2Headers().method("POST")
				.scheme("http")
				.path(path)
				.authority("localhost:" + this.port);
			headers.set("content-type", "application/grpc");
			headers.set("te", "trailers");
			stream.write(new DefaultHttp2HeadersFrame(headers));
			// One empty message: not compressed, length 0.
			stream.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(new byte[5]), true));
			return end.get(2, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			return this.connection.isActive() ? "no answer" : "closed";
		}
	}

	@Override
	public void close() {
		this.connection.close();
		this.loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
	}

	/** Notes the GOAWAY; drops it and the PING unanswered. */
	private final class Ignoring extends ChannelInboundHandlerAdapter {

		@Override
		public void channelRead(ChannelHandlerContext context, Object message) {
			if (message instanceof Http2GoAwayFrame) {
				DeafClient.this.goAway.complete(System.nanoTime());
			}
			else if (message instanceof Http2PingFrame) {
				// Never answered.
			}
			ReferenceCountUtil.release(message);
		}

	}

	/** How one call ended. */
	private static final class End extends ChannelInboundHandlerAdapter {

		private final CompletableFuture<String> end;

		End(CompletableFuture<String> end) {
			this.end = end;
		}

		@Override
		public void channelRead(ChannelHandlerContext context, Object message) {
			if (message instanceof Http2HeadersFrame headers && headers.headers().contains("grpc-status")) {
				this.end.complete(headers.headers().get("grpc-status").toString());
			}
			else if (message instanceof Http2ResetFrame) {
				this.end.complete("reset");
			}
			ReferenceCountUtil.release(message);
		}

		@Override
		public void channelInactive(ChannelHandlerContext context) {
			this.end.complete("closed");
		}

	}

}
