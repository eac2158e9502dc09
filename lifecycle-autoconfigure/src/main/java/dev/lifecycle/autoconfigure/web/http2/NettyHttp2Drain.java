package dev.lifecycle.autoconfigure.web.http2;

import dev.lifecycle.autoconfigure.web.Http2Drain;
import dev.lifecycle.core.Internal;
import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import reactor.netty.Connection;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.reactor.netty.NettyServerCustomizer;

/**
 * GOAWAY on Reactor Netty: Netty's HTTP/2 codec sends a GOAWAY frame with
 * {@code NO_ERROR} and the last stream it created, so every stream it accepted (the one
 * carrying the request included) is served to the end, and refuses newer ones, which the
 * client may retry elsewhere. Every connection is tracked from its creation, so idle
 * HTTP/2 connections get their GOAWAY too.
 */
@Internal
public final class NettyHttp2Drain implements Http2Drain.Server, NettyServerCustomizer {

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
			// No codec: an HTTP/1.1 connection. Once sent, a GOAWAY may not be sent again
			// with more streams.
			if (codec != null && connection.isActive() && !codec.connection().goAwaySent()) {
				connection.writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR));
			}
		});
	}

}
