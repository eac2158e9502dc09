package dev.lifecycle.sample.store;

/** The event store could not do what was asked; nothing was acknowledged. */
public class StoreException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public StoreException(String message, Throwable cause) {
		super(message, cause);
	}

	public StoreException(String message) {
		super(message);
	}

}
