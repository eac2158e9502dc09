package dev.lifecycle.sample.store;

/**
 * What happened to an append.
 *
 * @param offset the event's log offset (the original one for a duplicate or a conflict)
 * @param outcome whether the event was new, a repeat of a logged one, or a different
 * event reusing its id
 */
public record AppendResult(long offset, Outcome outcome) {

	/** The outcome of an append. */
	public enum Outcome {

		/** A new event, committed now. */
		APPENDED,

		/**
		 * The same id, key and value were logged before: acknowledged again, not logged
		 * twice.
		 */
		DUPLICATE,

		/** The id was logged before with a different key or value: rejected. */
		CONFLICT

	}

}
