package dev.lifecycle.sample.ingest;

import java.io.IOException;
import java.io.InputStream;

import dev.lifecycle.sample.SampleProperties;
import dev.lifecycle.sample.store.AppendResult;
import dev.lifecycle.sample.store.EventStore;
import dev.lifecycle.sample.store.StoreException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /events}: validates the body, appends the event to the durable log inside
 * an ingestion critical section, and answers {@code 202 Accepted} with the log offset
 * only after the commit. The body is read by hand, never more than the limit: a declared
 * {@code Content-Length} over the limit is refused before a byte is read, and an
 * undeclared (chunked) body is cut at the limit.
 *
 * <table>
 * <caption>Answers</caption>
 * <tr>
 * <td>202</td>
 * <td>{@code {"id", "offset", "duplicate"}}: committed (or a repeat of a committed id
 * with the same key and value: the original offset, {@code "duplicate": true}, not
 * counted again)</td>
 * </tr>
 * <tr>
 * <td>400</td>
 * <td>malformed JSON, a missing, oversized or wrongly typed field, an unknown field, a
 * value out of range, an id or key that is not valid Unicode</td>
 * </tr>
 * <tr>
 * <td>409</td>
 * <td>the id was already used for a different key or value</td>
 * </tr>
 * <tr>
 * <td>413</td>
 * <td>the body is larger than {@code sample.ingest.max-body-size}</td>
 * </tr>
 * <tr>
 * <td>415</td>
 * <td>a {@code Content-Type} that is not JSON (none at all is accepted)</td>
 * </tr>
 * <tr>
 * <td>503</td>
 * <td>ingestion has stopped (shutdown) or has not started, or the database is locked by
 * another process beyond {@code sample.db.busy-timeout}; with {@code Retry-After}</td>
 * </tr>
 * <tr>
 * <td>507</td>
 * <td>the disk is full; with {@code Retry-After} (reads go on; writes resume by
 * themselves once there is space)</td>
 * </tr>
 * <tr>
 * <td>500</td>
 * <td>the commit failed; nothing was written</td>
 * </tr>
 * </table>
 * Every error body is {@code {"error": "<code>", "reason": "<text>"}}.
 */
@RestController
public class EventController {

	private static final Logger logger = LoggerFactory.getLogger(EventController.class);

	private final Ingestion ingestion;

	private final EventStore store;

	private final EventParser parser = new EventParser();

	private final int maxBodySize;

	private final String retryAfterSeconds;

	private final Counter appended;

	private final Counter duplicates;

	private final Counter rejected;

	private final Counter refused;

	private final Counter unavailable;

	public EventController(Ingestion ingestion, EventStore store, SampleProperties properties, MeterRegistry registry) {
		this.ingestion = ingestion;
		this.store = store;
		this.maxBodySize = (int) Math.min(Integer.MAX_VALUE - 1, properties.ingest().maxBodySize().toBytes());
		this.retryAfterSeconds = Long.toString(Math.max(1, properties.ingest().retryAfter().toSeconds()));
		this.appended = counter(registry, "appended");
		this.duplicates = counter(registry, "duplicate");
		this.rejected = counter(registry, "rejected");
		this.refused = counter(registry, "refused");
		this.unavailable = counter(registry, "unavailable");
	}

	private static Counter counter(MeterRegistry registry, String outcome) {
		return Counter.builder("sample.events")
			.description("POST /events requests by outcome")
			.tag("outcome", outcome)
			.register(registry);
	}

	@PostMapping("/events")
	public ResponseEntity<Object> post(HttpServletRequest request) throws IOException, InterruptedException {
		if (this.ingestion.isRefusing()) {
			return refuse();
		}
		ResponseEntity<Object> badType = checkContentType(request.getContentType());
		if (badType != null) {
			return badType;
		}
		long declared = request.getContentLengthLong();
		if (declared > this.maxBodySize) {
			return tooLarge(
					"request body of " + declared + " bytes exceeds the limit of " + this.maxBodySize + " bytes");
		}
		byte[] body;
		try (InputStream in = request.getInputStream()) {
			body = in.readNBytes(this.maxBodySize + 1);
		}
		if (body.length > this.maxBodySize) {
			return tooLarge("request body exceeds the limit of " + this.maxBodySize + " bytes");
		}
		IncomingEvent event;
		try {
			event = this.parser.parse(body);
		}
		catch (InvalidEventException ex) {
			return error(HttpStatus.BAD_REQUEST, "invalid_event", ex.getMessage());
		}
		return append(event);
	}

	private ResponseEntity<Object> append(IncomingEvent event) throws InterruptedException {
		try (Ingestion.Admission admission = this.ingestion.admit()) {
			if (admission == null) {
				return refuse();
			}
			AppendResult result;
			try {
				result = this.store.append(event.id(), event.key(), event.value());
			}
			catch (StoreException ex) {
				if (this.ingestion.isRefusing()) {
					return refuse();
				}
				return switch (ex.kind()) {
					case BUSY -> unavailable(HttpStatus.SERVICE_UNAVAILABLE, "database_busy",
							"the database is locked by another process beyond the busy timeout; the event was not "
									+ "stored: retry with the same id after Retry-After");
					case FULL -> unavailable(HttpStatus.INSUFFICIENT_STORAGE, "storage_full",
							"the disk is full; the event was not stored: retry with the same id after Retry-After");
					case CLOSED -> refuse();
					case OTHER -> {
						logger.warn("POST /events: event '{}' not stored: {}", event.id(), ex.getMessage());
						yield error(HttpStatus.INTERNAL_SERVER_ERROR, "storage_error",
								"the event could not be committed and was not stored; retry with the same id");
					}
				};
			}
			return switch (result.outcome()) {
				case APPENDED -> {
					this.appended.increment();
					yield ResponseEntity.accepted().body(new Accepted(event.id(), result.offset(), false));
				}
				case DUPLICATE -> {
					this.duplicates.increment();
					yield ResponseEntity.accepted().body(new Accepted(event.id(), result.offset(), true));
				}
				case CONFLICT -> error(HttpStatus.CONFLICT, "id_conflict", "event id '" + event.id()
						+ "' was already used for a different key or value (at offset " + result.offset() + ")");
			};
		}
	}

	private ResponseEntity<Object> checkContentType(String contentType) {
		if (contentType == null || contentType.isBlank()) {
			return null;
		}
		try {
			MediaType type = MediaType.parseMediaType(contentType);
			if (type.isCompatibleWith(MediaType.APPLICATION_JSON) || type.getSubtype().endsWith("+json")) {
				return null;
			}
		}
		catch (InvalidMediaTypeException ex) {
			// fall through
		}
		return error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
				"Content-Type '" + contentType + "' is not JSON; send Content-Type: application/json");
	}

	private ResponseEntity<Object> refuse() {
		this.refused.increment();
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, this.retryAfterSeconds)
			.body(new ErrorBody("shutting_down", "ingestion is not accepting events (the service is shutting down "
					+ "or still starting); retry on another instance or after Retry-After"));
	}

	/**
	 * A write that failed for a passing reason: nothing was stored, and a retry later can
	 * succeed.
	 */
	private ResponseEntity<Object> unavailable(HttpStatus status, String code, String reason) {
		this.unavailable.increment();
		return ResponseEntity.status(status)
			.header(HttpHeaders.RETRY_AFTER, this.retryAfterSeconds)
			.contentType(MediaType.APPLICATION_JSON)
			.body(new ErrorBody(code, reason));
	}

	private ResponseEntity<Object> tooLarge(String reason) {
		return error(HttpStatus.CONTENT_TOO_LARGE, "body_too_large", reason);
	}

	private ResponseEntity<Object> error(HttpStatus status, String code, String reason) {
		this.rejected.increment();
		return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(new ErrorBody(code, reason));
	}

	/**
	 * The acknowledgement.
	 *
	 * @param id the event id
	 * @param offset the event's offset in the durable log
	 * @param duplicate whether the id had been acknowledged before (and is not counted
	 * again)
	 */
	public record Accepted(String id, long offset, boolean duplicate) {
	}

	/**
	 * An error answer.
	 *
	 * @param error a short machine-readable code
	 * @param reason what was wrong, for a person
	 */
	public record ErrorBody(String error, String reason) {
	}

}
