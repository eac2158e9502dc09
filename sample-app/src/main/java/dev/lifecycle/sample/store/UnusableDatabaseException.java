package dev.lifecycle.sample.store;

import java.nio.file.Path;

/**
 * The database file cannot be used as it is (a newer or unknown schema, a foreign file, a
 * checkpoint that does not match its log). Nothing in the file was changed. Start-up
 * fails with {@link #description()} and {@link #action()} (see
 * {@code StoreFailureAnalyzer}).
 */
public final class UnusableDatabaseException extends StoreException {

	private static final long serialVersionUID = 1L;

	private final Path file;

	private final String description;

	private final String action;

	UnusableDatabaseException(Path file, String description, String action) {
		super("Cannot use the event database " + file + ": " + description + " " + action, Cause.OTHER);
		this.file = file;
		this.description = description;
		this.action = action;
	}

	/** The database file. */
	public Path file() {
		return this.file;
	}

	/** What is wrong with it. */
	public String description() {
		return this.description;
	}

	/** What to do. */
	public String action() {
		return this.action;
	}

}
