package dev.lifecycle.sample.store;

import java.sql.SQLException;

/** The event store could not do what was asked; nothing was acknowledged. */
public class StoreException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final Cause kind;

	public StoreException(String message, Throwable cause) {
		super(message, cause);
		this.kind = classify(cause);
	}

	/**
	 * @param message the message
	 * @param cause the cause
	 * @param kind the kind, or null to classify the cause
	 */
	public StoreException(String message, Throwable cause, Cause kind) {
		super(message, cause);
		this.kind = (kind != null) ? kind : classify(cause);
	}

	public StoreException(String message) {
		this(message, Cause.OTHER);
	}

	public StoreException(String message, Cause kind) {
		super(message);
		this.kind = kind;
	}

	/**
	 * Why the store failed, as far as a client should care (it decides the HTTP status).
	 */
	public Cause kind() {
		return this.kind;
	}

	/**
	 * What kind of failure: the ones that pass by themselves are {@link #BUSY} and
	 * {@link #FULL}.
	 */
	public enum Cause {

		/**
		 * Another connection or process holds the database's write lock beyond the busy
		 * timeout.
		 */
		BUSY,

		/** The disk (or the file system's quota) is full. */
		FULL,

		/** The store is closed (shutdown). */
		CLOSED,

		/** Anything else. */
		OTHER

	}

	private static Cause classify(Throwable cause) {
		for (Throwable t = cause; t != null; t = t.getCause()) {
			if (t instanceof StoreException store) {
				return store.kind;
			}
			if (t instanceof SQLException sql) {
				// SQLite's primary result codes: 5 SQLITE_BUSY, 6 SQLITE_LOCKED, 13
				// SQLITE_FULL.
				int primary = sql.getErrorCode() & 0xff;
				if (primary == 5 || primary == 6) {
					return Cause.BUSY;
				}
				if (primary == 13) {
					return Cause.FULL;
				}
				String message = String.valueOf(sql.getMessage());
				if (message.contains("SQLITE_FULL") || message.contains("No space left")) {
					return Cause.FULL;
				}
				if (message.contains("SQLITE_BUSY") || message.contains("SQLITE_LOCKED")) {
					return Cause.BUSY;
				}
			}
			if (t instanceof java.io.IOException io && String.valueOf(io.getMessage()).contains("No space left")) {
				return Cause.FULL;
			}
		}
		return Cause.OTHER;
	}

}
