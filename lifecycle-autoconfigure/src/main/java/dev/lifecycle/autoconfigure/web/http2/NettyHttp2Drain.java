package dev.lifecycle.autoconfigure.web.http2;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.autoconfigure.web.Http2Drain;
import dev.lifecycle.core.Internal;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.jspecify.annotations.Nullable;
import reactor.netty.Connection;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.reactor.netty.NettyServerCustomizer;

/**
 * GOAWAY on Reactor Netty, in the two-phase form of RFC 9113 §6.8, on Netty's HTTP/2
 * codec: first a GOAWAY with the highest stream id (2^31-1) and {@code NO_ERROR}, so the
 * streams the client opens before it reads it are still accepted, with a PING; then, when
 * the PING's acknowledgement comes back (one round trip later) or after
 * {@link #FINAL_GO_AWAY_BOUND} if none does, a GOAWAY with the last stream the codec
 * accepted. Every stream accepted is served to the end; the codec refuses newer ones
 * ({@code REFUSED_STREAM}), which the client may retry elsewhere. Every connection is
 * tracked from its creation, so idle HTTP/2 connections get their GOAWAY too.
 */
@Internal
public final class NettyHttp2Drain implements Http2Drain.Server, NettyServerCustomizer {

	/**
	 * How long the final GOAWAY waits for the PING's acknowledgement: a client that has
	 * not answered in this time is stalled, and the streams it opens later are refused
	 * and may be retried elsewhere.
	 */
	static final Duration FINAL_GO_AWAY_BOUND = Duration.ofSeconds(1);

	/** The PING payload that tells this drain's PING from any other ("Lifecycl"). */
	static final long PING_CONTENT = 0x4c69666563796c6cL;

	private static final String HANDLER = "lifecycle.finalGoAway";

	private final ChannelGroup connections = new DefaultChannelGroup("lifecycle-connections",
			GlobalEventExecutor.INSTANCE);

	NettyHttp2Drain(Http2Drain drain) {
		drain.register(this);
	}

	@Override
	public HttpServer apply(HttpServer server) {
		return server.doOnChannelInit((observer, channel, remoteAddress) -> this.connections.add(channel));
	}

	@Override
	public void goAwayAll() {
		this.connections.forEach(NettyHttp2Drain::goAway);
	}

	@Override
	public void goAway(Object request) {
		if (request instanceof Connection connection && connection.channel() instanceof Http2StreamChannel stream) {
			goAway(stream.parent());
		}
	}

	private static void goAway(Channel connection) {
		connection.eventLoop().execute(() -> {
			Http2FrameCodec codec = connection.pipeline().get(Http2FrameCodec.class);
			// No codec: an HTTP/1.1 connection. A GOAWAY already sent: the first phase is
			// done, the final GOAWAY follows it (a GOAWAY may not be sent again with more
			// streams).
			if (codec == null || !connection.isActive() || codec.connection().goAwaySent()) {
				return;
			}
			DefaultHttp2GoAwayFrame first = new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR);
			// The codec adds these ids to the last stream it created, capped at 2^31-1.
			first.setExtraStreamIds(Integer.MAX_VALUE);
			connection.write(first);
			FinalGoAway last = new FinalGoAway();
			connection.pipeline().addAfter(connection.pipeline().context(codec).name(), HANDLER, last);
			connection.writeAndFlush(new DefaultHttp2PingFrame(PING_CONTENT));
			last.bound = connection.eventLoop()
				.schedule(() -> last.send(connection), FINAL_GO_AWAY_BOUND.toMillis(), TimeUnit.MILLISECONDS);
		});
	}

	/**
	 * Sends the final GOAWAY when the acknowledgement of the drain's PING arrives, or at
	 * the bound; on the connection's event loop only.
	 */
	private static final class FinalGoAway extends ChannelInboundHandlerAdapter {

		private @Nullable Future<?> bound;

		private boolean sent;

		@Override
		public void channelRead(ChannelHandlerContext context, Object message) {
			if (message instanceof Http2PingFrame ping && ping.ack() && ping.content() == PING_CONTENT) {
				send(context.channel());
				return;
			}
			context.fireChannelRead(message);
		}

		@Override
		public void channelInactive(ChannelHandlerContext context) {
			cancelBound();
			context.fireChannelInactive();
		}

		void send(Channel connection) {
			if (this.sent) {
				return;
			}
			this.sent = true;
			cancelBound();
			if (connection.pipeline().context(this) != null) {
				connection.pipeline().remove(this);
			}
			if (connection.isActive()) {
				// The last stream the codec created: lower than the first GOAWAY's, as
				// RFC 9113 requires of a second GOAWAY.
				connection.writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR));
			}
		}

		private void cancelBound() {
			Future<?> bound = this.bound;
			if (bound != null) {
				bound.cancel(false);
			}
		}

	}

}
