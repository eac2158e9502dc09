package dev.lifecycle.autoconfigure.web.servlet;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.lifecycle.autoconfigure.web.StreamDrain;
import dev.lifecycle.autoconfigure.web.StreamTypes;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

/**
 * The asynchronous responses still open, each with the response the filter served it, so
 * that the streaming ones end when the streams do and none holds the graceful shutdown. A
 * response waiting for its single result is a request in flight like any other and is
 * left to finish.
 */
final class AsyncResponses {

	private final Map<AsyncContext, HttpServletResponse> open = new ConcurrentHashMap<>();

	private final StreamDrain streams;

	AsyncResponses(StreamDrain streams) {
		this.streams = streams;
		streams.register(this::openStreams);
	}

	/**
	 * Tracks a response until it completes, ending it at once if the streams have ended.
	 */
	void track(AsyncContext context, HttpServletResponse served) {
		if (this.open.putIfAbsent(context, served) != null) {
			return;
		}
		context.addListener(new Forgetting(context, served));
		if (this.streams.isEnded()) {
			endIfStreaming(context);
		}
	}

	/** How many are tracked: those still open. */
	int tracked() {
		return this.open.size();
	}

	/**
	 * The responses open now that stream, each ended by its action; one that does not
	 * stream yet is asked again at the next sweep.
	 */
	private List<Runnable> openStreams() {
		List<Runnable> streaming = new ArrayList<>();
		for (AsyncContext context : this.open.keySet()) {
			if (isStreaming(context)) {
				streaming.add(() -> endIfStreaming(context));
			}
		}
		return streaming;
	}

	private boolean isStreaming(AsyncContext context) {
		try {
			return StreamTypes.isStream(context.getResponse().getContentType());
		}
		catch (IllegalStateException | NullPointerException ex) {
			// Completed meanwhile, or aborted (Jetty then has no response to give):
			// nothing
			// to end.
			this.open.remove(context);
			return false;
		}
	}

	/**
	 * Ends a response that streams: one of a streaming media type ({@link StreamTypes}),
	 * whether or not it has sent anything yet. Any other body, even one being written (a
	 * download from a {@code StreamingResponseBody}), is work, as a response still
	 * waiting for its single result is: ending it would answer a short 200 for a body
	 * that was cut. It is left to finish within the web server's graceful budget, which
	 * cuts it visibly when it runs out. It keeps its place here and ends at a later sweep
	 * if it turns out to stream.
	 */
	private void endIfStreaming(AsyncContext context) {
		if (this.open.containsKey(context) && isStreaming(context)) {
			complete(context);
		}
	}

	/**
	 * Ends the response; an event stream first gets the drain's reconnection advice,
	 * written on one of the server's threads, so that a client that does not read never
	 * holds the drain.
	 */
	private void complete(AsyncContext context) {
		HttpServletResponse served = this.open.remove(context);
		String retry = (served instanceof ClosingResponse && StreamTypes.isEventStream(served.getContentType()))
				? this.streams.sseRetryEvent() : null;
		if (retry == null) {
			finish(context, served);
			return;
		}
		try {
			context.start(() -> {
				try {
					((ClosingResponse) served).writeBetweenEvents(retry.getBytes(StandardCharsets.UTF_8));
				}
				finally {
					finish(context, served);
				}
			});
		}
		catch (IllegalStateException ex) {
			// Completed by the application meanwhile: nothing to end.
		}
		catch (RuntimeException ex) {
			// The server's threads take no more work: end it here, without the advice.
			finish(context, served);
		}
	}

	private static void finish(AsyncContext context, @Nullable HttpServletResponse served) {
		try {
			// A stream that has sent nothing yet is committed by its completion: it says
			// close too.
			if (served instanceof ClosingResponse closing) {
				closing.closeIfShuttingDown();
			}
			context.complete();
		}
		catch (IllegalStateException ex) {
			// Already completed by the application: nothing to end.
		}
	}

	/** Forgets a response when it ends, following it into each new asynchronous cycle. */
	private final class Forgetting implements AsyncListener {

		private final AsyncContext context;

		private final HttpServletResponse served;

		Forgetting(AsyncContext context, HttpServletResponse served) {
			this.context = context;
			this.served = served;
		}

		@Override
		public void onComplete(AsyncEvent event) {
			forget();
		}

		@Override
		public void onTimeout(AsyncEvent event) {
			forget();
		}

		@Override
		public void onError(AsyncEvent event) {
			forget();
		}

		private void forget() {
			AsyncResponses.this.open.remove(this.context);
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
			// A result that is itself asynchronous (a DeferredResult of a
			// StreamingResponseBody) starts a new cycle, whose events reach only the
			// listeners registered for it.
			forget();
			AsyncContext next = event.getAsyncContext();
			if (next != null) {
				track(next, this.served);
			}
		}

	}

}
