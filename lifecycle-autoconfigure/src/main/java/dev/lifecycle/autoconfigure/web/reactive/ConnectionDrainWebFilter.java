package dev.lifecycle.autoconfigure.web.reactive;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.lifecycle.autoconfigure.web.Http2Drain;
import dev.lifecycle.autoconfigure.web.OwnRequests;
import dev.lifecycle.autoconfigure.web.StreamDrain;
import dev.lifecycle.autoconfigure.web.StreamTypes;
import dev.lifecycle.autoconfigure.web.servlet.ChunkedFraming;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleManager;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.publisher.Sinks;

import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * The reactive counterpart of {@link ConnectionDrainFilter} (Reactor Netty): from the
 * first instant of a shutdown every HTTP/1.x response carries {@code Connection: close},
 * so keep-alive clients reconnect elsewhere during the drain delay (HTTP/2 gets a GOAWAY
 * from {@link Http2Drain}); the application's requests after the trigger count for the
 * adaptive drain and, when they fail, for the report (the actuator's, probes included,
 * are neither: {@link OwnRequests}), and streaming responses complete cleanly when the
 * {@link StreamDrain} says so, so none holds the graceful shutdown.
 */
final class ConnectionDrainWebFilter implements WebFilter, Ordered {

	private final LifecycleManager manager;

	private final boolean connectionClose;

	private final Http2Drain http2;

	private final OwnRequests own;

	/** {@code null} without Reactor Netty: no other server is known to pipeline. */
	private final @Nullable PipelinedNettyRequests pipelines;

	/** The streaming bodies being written. */
	private final Set<EndingBody> streaming = ConcurrentHashMap.newKeySet();

	private final StreamDrain streams;

	ConnectionDrainWebFilter(LifecycleManager manager, boolean connectionClose, StreamDrain streams, Http2Drain http2,
			OwnRequests own, @Nullable PipelinedNettyRequests pipelines) {
		this.manager = manager;
		this.connectionClose = connectionClose;
		this.http2 = http2;
		this.own = own;
		this.pipelines = pipelines;
		this.streams = streams;
		streams.register(() -> this.streaming.stream().map((body) -> (Runnable) body::endByDrain).toList());
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (this.manager.isShutdownInitiated() && counts(exchange)) {
			LifecycleHost.of(this.manager).recordActivity();
		}
		EndingStreams response = new EndingStreams(exchange);
		if (this.connectionClose && this.manager.isShutdownInitiated()) {
			response.closeWhenCommitted();
		}
		// A failure is judged on the chain's own signal, before it travels on: on Tomcat
		// and Jetty the completion ends the servlet request, and the server then recycles
		// the request and response it reads. The GOAWAY follows the response: a client
		// that fails the streams in flight when a GOAWAY arrives (the JDK's HttpClient
		// before Java 24) still gets this one.
		return chain.filter(exchange.mutate().response(response).build()).doOnEach((signal) -> {
			if (signal.isOnComplete() || signal.isOnError()) {
				// Not committed in the chain: the server's adapter or an exception
				// handler commits it next, through the response this filter was given.
				if (this.connectionClose && !exchange.getResponse().isCommitted()) {
					response.closeWhenCommitted();
				}
				judge(exchange, signal.isOnError());
			}
		}).doFinally((signal) -> {
			if (signal == SignalType.CANCEL) {
				judge(exchange, false);
			}
			if (this.manager.isShutdownInitiated()) {
				goAway(exchange);
			}
		});
	}

	/**
	 * The chain ended: a failed request if it threw (the handler after this filter
	 * answers that with a server error) or answered with a server error.
	 */
	private void judge(ServerWebExchange exchange, boolean threw) {
		if (this.manager.isShutdownInitiated() && (threw || isServerError(exchange.getResponse().getStatusCode()))
				&& counts(exchange)) {
			LifecycleHost.of(this.manager).recordFailedRequest();
		}
	}

	private static boolean isServerError(@Nullable HttpStatusCode status) {
		return status != null && status.is5xxServerError();
	}

	/**
	 * Decided as the response commits, once its status and headers are final, so that a
	 * request in flight when the shutdown begins is answered with the header too; the
	 * response keeps the framing it would have without it.
	 */
	private void closeWhenCommittedAfterTheShutdownBegan(ServerWebExchange exchange) {
		ServerHttpResponse response = exchange.getResponse();
		response.beforeCommit(() -> {
			// A WebSocket upgrade keeps its connection: the socket ends with the streams
			// instead. An offer of h2c the server does not take is answered in HTTP/1.1
			// like any request. Asked only once the shutdown has begun: while serving,
			// this filter reads no header.
			if (!this.manager.isShutdownInitiated()
					|| "websocket".equalsIgnoreCase(exchange.getRequest().getHeaders().getFirst(HttpHeaders.UPGRADE))) {
				return Mono.empty();
			}
			// The last request of a pipeline says close; those before it are served on
			// the connection.
			return pipelinedAfter(exchange).doOnNext((pipelined) -> {
				if (!pipelined) {
					sayClose(exchange, response);
				}
			}).then();
		});
	}

	/** Whether the request is the application's, not the actuator's. */
	private boolean counts(ServerWebExchange exchange) {
		ServerHttpRequest request = exchange.getRequest();
		InetSocketAddress local = request.getLocalAddress();
		return !this.own.isOwn(request.getPath().pathWithinApplication().value(),
				(local != null) ? local.getPort() : -1);
	}

	private static void sayClose(ServerWebExchange exchange, ServerHttpResponse response) {
		response.getHeaders().set(HttpHeaders.CONNECTION, "close");
		try {
			HttpStatusCode status = response.getStatusCode();
			ChunkedFraming.keep(ServerHttpResponseDecorator.getNativeResponse(response),
					HttpMethod.HEAD.equals(exchange.getRequest().getMethod()), (status != null) ? status.value() : 200,
					response.getHeaders().getContentLength() >= 0);
		}
		catch (IllegalArgumentException ex) {
			// A response with no native response behind it (a test double): nothing to
			// frame.
		}
	}

	private Mono<Boolean> pipelinedAfter(ServerWebExchange exchange) {
		PipelinedNettyRequests pipelines = this.pipelines;
		if (pipelines == null) {
			return Mono.just(false);
		}
		try {
			return pipelines.pipelinedAfter(ServerHttpRequestDecorator.getNativeRequest(exchange.getRequest()));
		}
		catch (IllegalArgumentException ex) {
			return Mono.just(false);
		}
	}

	private void goAway(ServerWebExchange exchange) {
		try {
			this.http2.onRequest(ServerHttpRequestDecorator.getNativeRequest(exchange.getRequest()));
		}
		catch (IllegalArgumentException ex) {
			// A request with no native request behind it (a test double): no connection
			// to drain.
		}
	}

	/**
	 * Completes a streaming body when the drain ends it, as if its publisher had
	 * completed; a body that begins after the streams began ending ends at once.
	 */
	private final class EndingStreams extends ServerHttpResponseDecorator {

		private final ServerWebExchange exchange;

		/** Whether the commit action that may say close is registered. */
		private boolean closeRegistered;

		EndingStreams(ServerWebExchange exchange) {
			super(exchange.getResponse());
			this.exchange = exchange;
		}

		/**
		 * Has the response say close when it commits, if the shutdown has begun by then.
		 * A commit action makes every commit of the response cost about a kilobyte, so
		 * while serving it is registered only where a commit may follow: just before the
		 * commit of a body of one buffer, the common response, and at once before any
		 * other.
		 */
		void closeWhenCommitted() {
			if (!this.closeRegistered) {
				this.closeRegistered = true;
				closeWhenCommittedAfterTheShutdownBegan(this.exchange);
			}
		}

		@Override
		public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
			if (ConnectionDrainWebFilter.this.connectionClose) {
				if (body instanceof Mono<? extends DataBuffer> single) {
					// The server commits the response as soon as its buffer is there.
					return super.writeWith(single.doOnNext((buffer) -> {
						if (ConnectionDrainWebFilter.this.manager.isShutdownInitiated()) {
							closeWhenCommitted();
						}
					}));
				}
				closeWhenCommitted();
			}
			return super.writeWith(isStream(body) ? ending(Flux.from(body)) : body);
		}

		@Override
		public Mono<Void> setComplete() {
			if (ConnectionDrainWebFilter.this.connectionClose) {
				closeWhenCommitted();
			}
			return super.setComplete();
		}

		/**
		 * A body of many parts of a streaming type. A single value of such a type (a
		 * {@code Mono} negotiated as NDJSON) is written whole, with the length announced
		 * for it.
		 */
		private boolean isStream(Publisher<? extends DataBuffer> body) {
			if (body instanceof Mono || getHeaders().getContentLength() >= 0) {
				return false;
			}
			return StreamTypes.isStream(getHeaders().getFirst(HttpHeaders.CONTENT_TYPE));
		}

		@Override
		public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
			if (ConnectionDrainWebFilter.this.connectionClose) {
				closeWhenCommitted();
			}
			EndingBody ending = new EndingBody();
			// One more flushed part after the last whole event (an event stream's parts
			// are its events): the reconnection advice, when the drain ended the stream.
			Flux<Publisher<? extends DataBuffer>> advice = Flux.defer(() -> {
				String retry = (ending.endedByDrain && isEventStream())
						? ConnectionDrainWebFilter.this.streams.sseRetryEvent() : null;
				return (retry != null)
						? Flux
							.just(Mono.fromSupplier(() -> bufferFactory().wrap(retry.getBytes(StandardCharsets.UTF_8))))
						: Flux.empty();
			});
			return super.writeAndFlushWith(
					ending.of(Flux.<Publisher<? extends DataBuffer>>from(body)).concatWith(advice));
		}

		private boolean isEventStream() {
			return StreamTypes.isEventStream(getHeaders().getFirst(HttpHeaders.CONTENT_TYPE));
		}

		private <T> Flux<T> ending(Flux<T> body) {
			return new EndingBody().of(body);
		}

	}

	/** One streaming body being written, and whether the drain ended it. */
	private final class EndingBody {

		private final Sinks.Empty<Void> end = Sinks.empty();

		private volatile boolean endedByDrain;

		<T> Flux<T> of(Flux<T> body) {
			return Flux.defer(() -> {
				ConnectionDrainWebFilter.this.streaming.add(this);
				if (ConnectionDrainWebFilter.this.streams.isEnded()) {
					endByDrain();
				}
				return body.takeUntilOther(this.end.asMono())
					.doFinally((signal) -> ConnectionDrainWebFilter.this.streaming.remove(this));
			});
		}

		void endByDrain() {
			this.endedByDrain = true;
			this.end.tryEmitEmpty();
		}

	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
