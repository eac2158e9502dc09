package dev.lifecycle.sample.ingest;

import dev.lifecycle.sample.grpc.v1.Ack;
import dev.lifecycle.sample.grpc.v1.Event;
import dev.lifecycle.sample.grpc.v1.IngestGrpc;
import dev.lifecycle.sample.store.AppendResult;
import dev.lifecycle.sample.store.EventStore;
import dev.lifecycle.sample.store.StoreException;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Service;

/**
 * The gRPC {@code lifecycle.sample.v1.Ingest/Append} call ({@code src/main/proto/ingest.proto}),
 * beside {@code POST /events}: the same validation, the same ingestion critical section and the
 * same idempotent store, and an answer only after the commit, so an {@code Ack} means the event is
 * durable. On with {@code sample.grpc.enabled=true}, on {@code spring.grpc.server.port}.
 *
 * <p>During a shutdown the call is served like {@code POST /events}: through the drain delay, then
 * refused with {@code UNAVAILABLE} once ingestion has stopped (the gRPC server has sent GOAWAY by
 * then, so clients have moved to another instance).
 */
@Service
@ConditionalOnBooleanProperty(name = "sample.grpc.enabled")
public class GrpcIngestService extends IngestGrpc.IngestImplBase {

	private static final Logger logger = LoggerFactory.getLogger(GrpcIngestService.class);

	private final Ingestion ingestion;

	private final EventStore store;

	private final EventParser parser = new EventParser();

	public GrpcIngestService(Ingestion ingestion, EventStore store) {
		this.ingestion = ingestion;
		this.store = store;
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
					case BUSY -> Status.UNAVAILABLE.withDescription("the database is locked by another process beyond "
							+ "the busy timeout; the event was not stored: retry with the same id").asException();
					case FULL -> Status.RESOURCE_EXHAUSTED.withDescription(
							"the disk is full; the event was not stored: retry with the same id later").asException();
					case CLOSED -> refused();
					case OTHER -> {
						logger.warn("gRPC Append: event '{}' not stored: {}", event.id(), ex.getMessage());
						yield Status.INTERNAL.withDescription(
								"the event could not be committed and was not stored; retry with the same id").asException();
					}
				};
			}
			if (result.outcome() == AppendResult.Outcome.CONFLICT) {
				throw Status.ALREADY_EXISTS.withDescription("event id '" + event.id()
						+ "' was already used for a different key or value (at offset " + result.offset() + ")")
					.asException();
			}
			return result;
		}
	}

	private static StatusException refused() {
		return Status.UNAVAILABLE.withDescription("ingestion is not accepting events (the service is shutting down "
				+ "or still starting); retry on another instance").asException();
	}

}
