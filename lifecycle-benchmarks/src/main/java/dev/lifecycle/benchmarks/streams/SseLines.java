package dev.lifecycle.benchmarks.streams;

import java.util.concurrent.Flow;

/**
 * The server-sent events format, line by line, for {@link StreamLoad}: an event is
 * dispatched at its blank line (an event cut before it is not counted), and a
 * {@code retry:} field is passed on as the reconnection time it advises.
 */
final class SseLines implements Flow.Subscriber<String> {

	private final Listener listener;

	private String id;

	SseLines(Listener listener) {
		this.listener = listener;
	}

	@Override
	public void onSubscribe(Flow.Subscription subscription) {
		this.listener.subscribed(subscription::cancel);
		subscription.request(Long.MAX_VALUE);
	}

	@Override
	public void onNext(String line) {
		this.listener.line();
		if (line.isEmpty()) {
			if (this.id != null) {
				try {
					this.listener.event(Long.parseLong(this.id));
				}
				catch (NumberFormatException ex) {
					// Not one of the app's ids.
					this.listener.eventWithoutId();
				}
			}
			this.id = null;
			return;
		}
		int colon = line.indexOf(':');
		if (colon == 0) {
			return; // a comment
		}
		String field = (colon < 0) ? line : line.substring(0, colon);
		String value = (colon < 0) ? "" : line.substring(colon + 1);
		if (value.startsWith(" ")) {
			value = value.substring(1);
		}
		if (field.equals("id")) {
			this.id = value;
		}
		else if (field.equals("retry") && !value.isEmpty() && value.chars().allMatch(Character::isDigit)) {
			this.listener.retry(Long.parseLong(value));
		}
	}

	@Override
	public void onError(Throwable throwable) {
	}

	@Override
	public void onComplete() {
	}

	/** What the lines of one stream tell. */
	interface Listener {

		/** The stream's subscription: {@code cancel} closes it. */
		void subscribed(Runnable cancel);

		/** A line arrived. */
		void line();

		/** An event with an id of the app's. */
		void event(long id);

		/** An event whose id is not one of the app's. */
		void eventWithoutId();

		/** A {@code retry:} field. */
		void retry(long ms);

	}

}
