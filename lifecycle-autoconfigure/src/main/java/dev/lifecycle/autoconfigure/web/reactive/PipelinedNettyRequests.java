package dev.lifecycle.autoconfigure.web.reactive;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Collection;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.NettyPipeline;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Whether Reactor Netty has already read another request on the connection of this one, so that
 * the drain says {@code Connection: close} only on the last request of an HTTP/1.1 pipeline.
 * A request that follows is either still undecoded in its HTTP codec's input
 * (Netty hands each request on as it decodes it, so the next ones wait there while this one is
 * answered on the same thread) or decoded and queued in its traffic handler. Both belong to the
 * connection's event loop and are read there only: a handler that answers on another thread would
 * otherwise see them half-updated, or a buffer Netty has already released and reused.
 */
final class PipelinedNettyRequests {

	private static final Log logger = LogFactory.getLog(PipelinedNettyRequests.class);

	private static final ClassLoader LOADER = PipelinedNettyRequests.class.getClassLoader();

	private PipelinedNettyRequests() {
	}

	/**
	 * Whether another request already follows this one on its connection, decided on the
	 * connection's event loop: at once when called there, else when the loop runs it.
	 * @param request the native request of Reactor Netty
	 * @return {@code true} only when Netty is known to hold a further request
	 */
	static Mono<Boolean> pipelinedAfter(Object request) {
		if (!(request instanceof Connection connection)) {
			return Mono.just(false);
		}
		Channel channel = connection.channel();
		if (channel.eventLoop().inEventLoop()) {
			return Mono.just(pipelined(request));
		}
		Mono<Boolean> onTheLoop = Mono.create((answer) -> {
			try {
				channel.eventLoop().execute(() -> answer.success(pipelined(request)));
			}
			catch (RuntimeException ex) {
				// The loop is shutting down: the connection goes with it.
				answer.success(false);
			}
		});
		// A loop that does not get to it in time (stopping, or stalled) holds no response: it says close.
		return onTheLoop.timeout(LOOP_WAIT, Mono.just(false));
	}

	private static final Duration LOOP_WAIT = Duration.ofSeconds(1);

	/**
	 * Whether another request already follows this one on its connection; only on its event loop.
	 * @param request the native request of Reactor Netty
	 * @return {@code true} only when Netty is known to hold a further request
	 */
	static boolean pipelined(Object request) {
		try {
			return follow(request);
		}
		catch (RuntimeException | LinkageError ex) {
			logger.debug("Lifecycle: cannot tell whether requests are pipelined after this one", ex);
			return false;
		}
	}


	private static final @Nullable Field PIPELINED = field("reactor.netty.http.server.HttpTrafficHandler",
			"pipelined");

	private static final @Nullable Field INBOUND = field("io.netty.channel.CombinedChannelDuplexHandler",
			"inboundHandler");

	private static final @Nullable Field CUMULATION = field("io.netty.handler.codec.ByteToMessageDecoder",
			"cumulation");

	private static boolean follow(Object request) {
		if (!(request instanceof Connection connection)) {
			return false;
		}
		ChannelPipeline pipeline = connection.channel().pipeline();
		return undecoded(pipeline.get(NettyPipeline.HttpCodec)) || queued(pipeline.get(NettyPipeline.HttpTrafficHandler));
	}

	private static boolean undecoded(@Nullable Object codec) {
		if (INBOUND == null || CUMULATION == null || !INBOUND.getDeclaringClass().isInstance(codec)) {
			return false;
		}
		Object decoder = ReflectionUtils.getField(INBOUND, codec);
		return CUMULATION.getDeclaringClass().isInstance(decoder)
				&& ReflectionUtils.getField(CUMULATION, decoder) instanceof ByteBuf input && input.isReadable();
	}

	private static boolean queued(@Nullable Object handler) {
		return PIPELINED != null && PIPELINED.getDeclaringClass().isInstance(handler)
				&& ReflectionUtils.getField(PIPELINED, handler) instanceof Collection<?> queued && !queued.isEmpty();
	}

	private static @Nullable Field field(String type, String name) {
		try {
			Field field = ReflectionUtils.findField(ClassUtils.forName(type, LOADER), name);
			if (field != null) {
				ReflectionUtils.makeAccessible(field);
			}
			return field;
		}
		catch (ClassNotFoundException | LinkageError | RuntimeException ex) {
			return null;
		}
	}


	/** The fields read by reflection, for a native image. */
	public static final class Hints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
			hints.reflection()
				.registerType(TypeReference.of("reactor.netty.http.server.HttpTrafficHandler"),
						(type) -> type.withField("pipelined"))
				.registerType(TypeReference.of("io.netty.channel.CombinedChannelDuplexHandler"),
						(type) -> type.withField("inboundHandler"))
				.registerType(TypeReference.of("io.netty.handler.codec.ByteToMessageDecoder"),
						(type) -> type.withField("cumulation"));
		}

	}

}
