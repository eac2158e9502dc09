package dev.lifecycle.autoconfigure.grpc;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
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
 * A gRPC client over a raw HTTP/2 connection that ignores what a server says to end it:
 * it never acknowledges a PING and keeps opening calls after a GOAWAY (which the first
 * GOAWAY of a graceful close allows). Each unary call reads as its {@code grpc-status},
 * {@code "reset"} or {@code "closed"}.
 */
final class DeafGrpcClient implements AutoCloseable {

	private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

	private final Channel connection;

	private final String authority;

	final CompletableFuture<Long> goAwayAt = new CompletableFuture<>();

	final CompletableFuture<Long> pingAt = new CompletableFuture<>();

	final CompletableFuture<Long> closedAt = new CompletableFuture<>();

	DeafGrpcClient(int port) throws InterruptedException {
		this.authority = "localhost:" + port;
		this.connection = new Bootstrap().group(this.group)
			.channel(NioSocketChannel.class)
			.handler(new ChannelInitializer<Channel>() {
				@Override
				protected void initChannel(Channel channel) {
					channel.pipeline()
						.addLast(Http2FrameCodecBuilder.forClient().autoAckPingFrame(false).build(),
								new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()), new Deaf());
				}
			})
			.connect("localhost", port)
			.sync()
			.channel();
		this.connection.closeFuture().addListener((future) -> this.closedAt.complete(System.nanoTime()));
	}

	/**
	 * Calls a unary method with an empty request.
	 * @return its {@code grpc-status}, {@code "reset"}, or {@code "closed"} if the
	 * connection is gone
	 */
	String call(String path, Duration timeout) throws InterruptedException {
		if (!this.connection.isActive()) {
			return "closed";
		}
		CompletableFuture<String> status = new CompletableFuture<>();
		try {
			Http2StreamChannel stream = new Http2StreamChannelBootstrap(this.connection).handler(new Answer(status))
				.open()
				.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			Http2Headers headers = new DefaultHttp2Headers().method("POST")
				.scheme("http")
				.path(path)
				.authority(this.authority);
			headers.set("content-type", "application/grpc");
			headers.set("te", "trailers");
			stream.write(new DefaultHttp2HeadersFrame(headers));
			// An empty message: no compression, length 0.
			ByteBuf message = Unpooled.wrappedBuffer(new byte[] { 0, 0, 0, 0, 0 });
			stream.writeAndFlush(new DefaultHttp2DataFrame(message, true));
			return status.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException | TimeoutException ex) {
			return this.connection.isActive() ? "failed: " + ex : "closed";
		}
	}

	@Override
	public void close() {
		this.connection.close();
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
	}

	/** Notes the GOAWAY and the PING, and does nothing about them. */
	private final class Deaf extends ChannelInboundHandlerAdapter {

		@Override
		public void channelRead(ChannelHandlerContext context, Object message) {
			if (message instanceof Http2GoAwayFrame) {
				DeafGrpcClient.this.goAwayAt.complete(System.nanoTime());
			}
			if (message instanceof Http2PingFrame ping && !ping.ack()) {
				DeafGrpcClient.this.pingAt.complete(System.nanoTime());
			}
			ReferenceCountUtil.release(message);
		}

	}

	/** Reads one call's status from its headers or trailers. */
	private static final class Answer extends ChannelInboundHandlerAdapter {

		private final CompletableFuture<String> status;

		Answer(CompletableFuture<String> status) {
			this.status = status;
		}

		@Override
		public void channelRead(ChannelHandlerContext context, Object message) {
			if (message instanceof Http2HeadersFrame headers && headers.headers().contains("grpc-status")) {
				this.status.complete(headers.headers().get("grpc-status").toString());
			}
			else if (message instanceof Http2ResetFrame) {
				this.status.complete("reset");
			}
			ReferenceCountUtil.release(message);
		}

		@Override
		public void channelInactive(ChannelHandlerContext context) {
			this.status.complete("closed");
		}

	}

}
