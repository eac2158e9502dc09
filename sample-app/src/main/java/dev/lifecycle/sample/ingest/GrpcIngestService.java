package dev.lifecycle.sample.ingest;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.sample.grpc.v1.Ack;
import dev.lifecycle.sample.grpc.v1.Event;
import dev.lifecycle.sample.grpc.v1.IngestGrpc;
import dev.lifecycle.sample.grpc.v1.Offset;
import dev.lifecycle.sample.grpc.v1.WatchOffsetRequest;
import dev.lifecycle.sample.pipeline.Pipeline;
import dev.lifecycle.sample.store.AppendResult;
import dev.lifecycle.sample.store.EventStore;
import dev.lifecycle.sample.store.StoreException;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Service;

/**
 * The gRPC {@code lifecycle.sample.v1.Ingest} service
 * ({@code src/main/proto/ingest.proto}). Its {@code Append} call, beside
 * {@code POST /events}, has the same validation, the same ingestion critical section and
 * the same idempotent store, and an answer only after the commit, so an {@code Ack} means
 * the event is durable. Its {@code WatchOffset} stream, like {@code GET /counts/stream},
 * sends the processed offset every second. On with {@code sample.grpc.enabled=true}, on
 * {@code spring.grpc.server.port}.
 *
 * <p>
 * During a shutdown {@code Append} is served like {@code POST /events}: through the drain
 * delay, then refused with {@code UNAVAILABLE} once ingestion has stopped (the gRPC
 * server has sent GOAWAY by then, so clients have moved to another instance). Lifecycle
 * ends the offset streams with {@code UNAVAILABLE} when the drain delay ends.
 */
@Service
@ConditionalOnBooleanProperty(name = "sample.grpc.enabled")
public class GrpcIngestService extends IngestGrpc.IngestImplBase implements DisposableBean {

	private static final Logger logger = LoggerFactory.getLogger(GrpcIngestService.class);

	private final Ingestion ingestion;

	private final EventStore store;

	private final Pipeline pipeline;

	private final EventParser parser = new EventParser();

	private final Set<ServerCallStreamObserver<Offset>> watchers = ConcurrentHashMap.newKeySet();

	private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "grpc-offset-stream");
		thread.setDaemon(true);
		return thread;
	});

	public GrpcIngestService(Ingestion ingestion, EventStore store, Pipeline pipeline) {
		this.ingestion = ingestion;
		this.store = store;
		this.pipeline = pipeline;
		this.ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
	}

	@Override
	public void watchOffset(WatchOffsetRequest request, StreamObserver<Offset> response) {
		ServerCallStreamObserver<Offset> watcher = (ServerCallStreamObserver<Offset>) response;
		// Cancelled: the client left, or the server's drain ended the stream.
		watcher.setOnCancelHandler(() -> this.watchers.remove(watcher));
		this.watchers.add(watcher);
		send(watcher, this.pipeline.offset());
	}

	private void tick() {
		long offset = this.pipeline.offset();
		this.watchers.forEach((watcher) -> send(watcher, offset));
	}

	private void send(ServerCallStreamObserver<Offset> watcher, long offset) {
		// One sender per stream at a time: the ticker's thread, or the call's first
		// message.
		synchronized (watcher) {
			if (!watcher.isCancelled()) {
				watcher.onNext(Offset.newBuilder().setOffset(offset).build());
			}
		}
	}

	@Override
	public void destroy() {
		this.ticker.shutdownNow();
	}

	@Override
	public void append(Event request, StreamObserver<Ack> response) {
		try {
			AppendResult result = append(this.parser.event(request.getId(), request.getKey(), request.getValue()));
			response.onNext(Ack.newBuilder()
				.setId(request.getId())
				.setOffset(result.offset())
				.setDuplicate(result.outcome() == AppendResult.Outcome.DUPLICATE)
				.build());
			response.onCompleted();
		}
		catch (InvalidEventException ex) {
			response.onError(Status.INVALID_ARGUMENT.withDescription(ex.getMessage()).asException());
		}
		catch (StatusException ex) {
			response.onError(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			response.onError(Status.UNAVAILABLE.withDescription("interrupted; the event was not stored").asException());
		}
	}

	private AppendResult append(IncomingEvent event) throws InterruptedException, StatusException {
		try (Ingestion.Admission admission = this.ingestion.admit()) {
			if (admission == null) {
				throw refused();
			}
			AppendResult result;
			try {
				result = this.store.append(event.id(), event.key(), event.value());
			}
			catch (StoreException ex) {
				if (this.ingestion.isRefusing()) {
					throw refused();
				}
				throw switch (ex.kind()) {
					case BUSY ->
						Status.UNAVAILABLE
							.withDescription("the database is locked by another process beyond "
									+ "the busy timeout; the event was not stored: retry with the same id")
							.asException();
					case FULL -> Status.RESOURCE_EXHAUSTED
						.withDescription("the disk is full; the event was not stored: retry with the same id later")
						.asException();
					case CLOSED -> refused();
					case OTHER -> {
						logger.warn("gRPC Append: event '{}' not stored: {}", event.id(), ex.getMessage());
						yield Status.INTERNAL
							.withDescription(
									"the event could not be committed and was not stored; retry with the same id")
							.asException();
					}
				};
			}
			if (result.outcome() == AppendResult.Outcome.CONFLICT) {
				throw Status.ALREADY_EXISTS
					.withDescription("event id '" + event.id()
							+ "' was already used for a different key or value (at offset " + result.offset() + ")")
					.asException();
			}
			return result;
		}
	}

	private static StatusException refused() {
		return Status.UNAVAILABLE
			.withDescription("ingestion is not accepting events (the service is shutting down "
					+ "or still starting); retry on another instance")
			.asException();
	}

}
