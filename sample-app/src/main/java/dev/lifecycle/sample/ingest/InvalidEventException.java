package dev.lifecycle.sample.ingest;

/**
 * A request body that is not a valid event; the message is the reason given to the
 * client.
 */
public class InvalidEventException extends Exception {

	private static final long serialVersionUID = 1L;

	public InvalidEventException(String reason) {
		super(reason);
	}

}
