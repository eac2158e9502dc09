package dev.lifecycle.scenarios;

import java.util.ArrayList;
import java.util.List;

/**
 * The events a client reads from the lines of an event stream, as the HTML standard's
 * {@code EventSource} reads them: an event is dispatched at a blank line, the last event
 * id is the {@code id:} field's value as it stands at a dispatch, and what follows the
 * last blank line (an event cut in the middle) is dropped.
 */
final class ServerSentEvents {

	private ServerSentEvents() {
	}

	/** The events dispatched from the lines, in order. */
	static List<Event> events(List<String> lines) {
		List<Event> events = new ArrayList<>();
		String id = null;
		StringBuilder data = null;
		for (String line : lines) {
			if (line.isEmpty()) {
				if (data != null) {
					events.add(new Event(id, data.toString()));
				}
				data = null;
			}
			else if (line.startsWith("id:")) {
				id = field(line, "id:");
			}
			else if (line.startsWith("data:")) {
				data = (data != null) ? data.append('\n') : new StringBuilder();
				data.append(field(line, "data:"));
			}
		}
		return events;
	}

	/**
	 * The id a client sends back as {@code Last-Event-ID} after these lines: the one of
	 * its last dispatch, or none.
	 */
	static String lastEventId(List<String> lines) {
		String id = null;
		String lastId = null;
		for (String line : lines) {
			if (line.startsWith("id:")) {
				id = field(line, "id:");
			}
			else if (line.isEmpty()) {
				lastId = id;
			}
		}
		return lastId;
	}

	private static String field(String line, String name) {
		String value = line.substring(name.length());
		return value.startsWith(" ") ? value.substring(1) : value;
	}

	/** One event: its id (the last one set, or none) and its data. */
	record Event(String id, String data) {
	}

}
