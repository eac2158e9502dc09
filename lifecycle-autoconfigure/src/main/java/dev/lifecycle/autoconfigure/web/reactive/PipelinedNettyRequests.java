package dev.lifecycle.autoconfigure.web.reactive;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Collection;

import dev.lifecycle.autoconfigure.InternalHooks;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.ByteToMessageDecoder;
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
 * Whether Reactor Netty has already read another request on the connection of this one,
 * so that the drain says {@code Connection: close} only on the last request of an
 * HTTP/1.1 pipeline. A request that follows is either still undecoded in its HTTP codec's
 * input (Netty hands each request on as it decodes it, so the next ones wait there while
 * this one is answered on the same thread) or decoded and queued in its traffic handler.
 * Both belong to the connection's event loop and are read there only: a handler that
 * answers on another thread would otherwise see them half-updated, or a buffer Netty has
 * already released and reused.
 */
final class PipelinedNettyRequests {

	private static final Log logger = LogFactory.getLog(PipelinedNettyRequests.class);

	static final InternalHooks.Point HOOK = new InternalHooks.Point("netty.pipelining",
			"Reactor Netty's HttpTrafficHandler.pipelined, Netty's CombinedChannelDuplexHandler.inboundHandler "
					+ "and ByteToMessageDecoder.cumulation (private fields)",
			"'Connection: close' only on the last request of an HTTP/1.1 pipeline on Reactor Netty",
			"During the drain every response on Reactor Netty says close, and a request pipelined behind it on "
					+ "the same connection is not served (its client retries it). Use the Reactor Netty and Netty "
					+ "versions Spring Boot manages (Reactor Netty 1.3, Netty 4.2).");

	/** Package-private in Reactor Netty. */
	private static final String TRAFFIC_HANDLER = "reactor.netty.http.server.HttpTrafficHandler";

	private static final ClassLoader LOADER = PipelinedNettyRequests.class.getClassLoader();

	private static final Duration LOOP_WAIT = Duration.ofSeconds(1);

	/**
	 * What the hook reads; {@code null} when it missed, and then no request is known to
	 * follow.
	 */
	private final @Nullable Fields fields;

	private PipelinedNettyRequests(@Nullable Fields fields) {
		this.fields = fields;
	}

	/** Resolves the hook, once, for the drain filter. */
	static PipelinedNettyRequests resolve(InternalHooks hooks) {
		return new PipelinedNettyRequests(hooks.resolve(HOOK,
				() -> new Fields(
						InternalHooks.field(ClassUtils.forName(TRAFFIC_HANDLER, LOADER), "pipelined", Collection.class),
						InternalHooks.field(CombinedChannelDuplexHandler.class, "inboundHandler", Object.class),
						InternalHooks.field(ByteToMessageDecoder.class, "cumulation", ByteBuf.class))));
	}

	/**
	 * Whether another request already follows this one on its connection, decided on the
	 * connection's event loop: at once when called there, else when the loop runs it.
	 * @param request the native request of Reactor Netty
	 * @return {@code true} only when Netty is known to hold a further request
	 */
	Mono<Boolean> pipelinedAfter(Object request) {
		if (!(request instanceof Connection connection) || this.fields == null) {
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
		// A loop that does not get to it in time (stopping, or stalled) holds no
		// response: it says close.
		return onTheLoop.timeout(LOOP_WAIT, Mono.just(false));
	}

	/**
	 * Whether another request already follows this one on its connection; only on its
	 * event loop.
	 * @param request the native request of Reactor Netty
	 * @return {@code true} only when Netty is known to hold a further request
	 */
	boolean pipelined(Object request) {
		Fields fields = this.fields;
		if (fields == null || !(request instanceof Connection connection)) {
			return false;
		}
		try {
			ChannelPipeline pipeline = connection.channel().pipeline();
			return fields.undecoded(pipeline.get(NettyPipeline.HttpCodec))
					|| fields.queued(pipeline.get(NettyPipeline.HttpTrafficHandler));
		}
		catch (RuntimeException | LinkageError ex) {
			logger.debug("Lifecycle: cannot tell whether requests are pipelined after this one", ex);
			return false;
		}
	}

	/**
	 * The fields the hook reads.
	 *
	 * @param pipelined the requests a traffic handler decoded and queued
	 * @param inbound the decoder of an HTTP codec
	 * @param cumulation the bytes a decoder holds undecoded
	 */
	private record Fields(Field pipelined, Field inbound, Field cumulation) {

		boolean undecoded(@Nullable Object codec) {
			if (!this.inbound.getDeclaringClass().isInstance(codec)) {
				return false;
			}
			Object decoder = ReflectionUtils.getField(this.inbound, codec);
			return this.cumulation.getDeclaringClass().isInstance(decoder)
					&& ReflectionUtils.getField(this.cumulation, decoder) instanceof ByteBuf input
					&& input.isReadable();
		}

		boolean queued(@Nullable Object handler) {
			return this.pipelined.getDeclaringClass().isInstance(handler)
					&& ReflectionUtils.getField(this.pipelined, handler) instanceof Collection<?> queued
					&& !queued.isEmpty();
		}

	}

	/** The fields read by reflection, for a native image. */
	public static final class Hints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
			hints.reflection()
				.registerType(TypeReference.of(TRAFFIC_HANDLER), (type) -> type.withField("pipelined"))
				.registerType(TypeReference.of("io.netty.channel.CombinedChannelDuplexHandler"),
						(type) -> type.withField("inboundHandler"))
				.registerType(TypeReference.of("io.netty.handler.codec.ByteToMessageDecoder"),
						(type) -> type.withField("cumulation"));
		}

	}

}
