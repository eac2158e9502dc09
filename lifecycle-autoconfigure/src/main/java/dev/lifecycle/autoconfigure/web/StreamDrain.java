package dev.lifecycle.autoconfigure.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import dev.lifecycle.autoconfigure.LifecycleStreamsProperties;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownStep;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.StepReport;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Ends long-lived responses (server-sent events, streaming responses, WebSocket sessions,
 * gRPC streams) from one documented point of a shutdown, so that no stream holds the web
 * server's graceful shutdown: its first instant, or by default the end of the drain
 * delay, once load balancers route elsewhere. From that point a stream that starts ends
 * at once, or at the next step if nothing said it was a stream before its body began. The
 * streams open at that point end one by one, spread evenly with jitter over the
 * {@link StreamPacing pacing}'s spread, so that their clients do not all reconnect to the
 * instances that stay up in the same instant; sessions first, then streams, then what the
 * servers themselves hold. Public so that Lifecycle's other integrations (gRPC) end their
 * streams the same way.
 */
@Internal
public final class StreamDrain implements LifecycleListener {

	private static final Log logger = LogFactory.getLog(StreamDrain.class);

	private final LifecycleStreamsProperties.EndAt endAt;

	private final StreamPacing pacing;

	private final List<OpenStreams> sessions = new CopyOnWriteArrayList<>();

	private final List<OpenStreams> streams = new CopyOnWriteArrayList<>();

	private final List<Runnable> serverEnders = new CopyOnWriteArrayList<>();

	private final AtomicBoolean ended = new AtomicBoolean();

	/** Set once every stream open at the ending point has been ended. */
	private volatile boolean settled;

	/** Set when the shutdown ends while streams still wait for their turn. */
	private volatile boolean hurry;

	private volatile @Nullable Thread pacer;

	private final Duration sseRetry;

	/**
	 * @param sseRetry the reconnection time to advise to the clients of ended server-sent
	 * event streams, {@code 0} for none
	 */
	StreamDrain(LifecycleStreamsProperties.EndAt endAt, StreamPacing pacing, Duration sseRetry) {
		this.endAt = endAt;
		this.pacing = pacing;
		this.sseRetry = sseRetry;
	}

	/**
	 * What a server-sent event stream the drain ends sends just before its end: an event
	 * with only a {@code retry:} field, its time drawn uniformly between half the
	 * configured time and all of it, or {@code null} when none is configured.
	 */
	public @Nullable String sseRetryEvent() {
		long most = this.sseRetry.toMillis();
		if (most <= 0) {
			return null;
		}
		long retry = ThreadLocalRandom.current().nextLong(most / 2, most + 1);
		return "retry:" + retry + "\n\n";
	}

	/**
	 * Adds one web stack's open streams. They end from the ending point; as each later
	 * step of the sequence starts, a response that began streaming since ends too.
	 */
	public void register(OpenStreams stack) {
		this.streams.add(stack);
	}

	/**
	 * Adds one web stack's open sessions (WebSocket, SockJS). Sessions end before
	 * streams: a session carried by a streaming response (SockJS over HTTP) sends its own
	 * close frame first, where ending the response under it would leave its client to
	 * find the session gone.
	 */
	public void registerSessions(OpenStreams stack) {
		this.sessions.add(stack);
	}

	/**
	 * Adds how a web server closes the WebSocket sessions it holds, tracked by no one
	 * else (plain Jakarta endpoints). These run last: a server may close every socket it
	 * holds, and a session of Spring's (SockJS over WebSocket) must have sent its own
	 * close frame by then.
	 */
	public void registerServer(Runnable ender) {
		this.serverEnders.add(ender);
	}

	/** Whether the streams are ending; a stream starting now ends at once. */
	public boolean isEnded() {
		return this.ended.get();
	}

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
		if (this.endAt == LifecycleStreamsProperties.EndAt.SHUTDOWN) {
			end("the shutdown began");
		}
	}

	@Override
	public void onStepStarted(String step) {
		// While the pacer works, a stream that began since waits for its last sweep.
		if (this.settled) {
			sweep();
		}
	}

	@Override
	public void onStepCompleted(StepReport step) {
		if (step.kind() == ShutdownStep.DRAIN_DELAY) {
			end("the drain delay ended");
		}
	}

	@Override
	public void onShutdownCompleted(ShutdownReport report) {
		end("the shutdown ended");
		Thread waiting = this.pacer;
		if (waiting != null && !this.settled) {
			this.hurry = true;
			LockSupport.unpark(waiting);
			settle();
		}
	}

	private void end(String when) {
		if (!this.ended.compareAndSet(false, true)) {
			return;
		}
		Stream.concat(this.sessions.stream(), this.streams.stream()).forEach(StreamDrain::ending);
		List<Runnable> units = shuffled(this.sessions);
		units.addAll(shuffled(this.streams));
		Duration spread = this.pacing.spread(units.size());
		logger.info("Lifecycle: ending long-lived streams (" + when + "): " + units.size() + " open"
				+ (spread.isZero() ? "" : ", their ends spread over " + spread.toMillis() + " ms"));
		if (spread.isZero()) {
			units.forEach(StreamDrain::run);
			settle();
			return;
		}
		Thread thread = new Thread(() -> pace(units), "lifecycle-stream-ends");
		thread.setDaemon(true);
		this.pacer = thread;
		thread.start();
	}

	private void pace(List<Runnable> units) {
		long[] schedule = this.pacing.schedule(units.size(), ThreadLocalRandom.current());
		long start = System.nanoTime();
		long previous = Long.MIN_VALUE / 2;
		for (int k = 0; k < units.size(); k++) {
			long due = this.pacing.due(start + schedule[k], previous, units.size());
			for (long wait = due - System.nanoTime(); wait > 0 && !this.hurry; wait = due - System.nanoTime()) {
				LockSupport.parkNanos(this, wait);
			}
			previous = System.nanoTime();
			run(units.get(k));
		}
		settle();
	}

	/**
	 * Ends whatever still streams, then what the servers hold; from now on each step's
	 * start sweeps again.
	 */
	private synchronized void settle() {
		sweep();
		this.serverEnders.forEach(StreamDrain::run);
		this.settled = true;
	}

	private void sweep() {
		for (OpenStreams stack : this.sessions) {
			open(stack).forEach(StreamDrain::run);
		}
		for (OpenStreams stack : this.streams) {
			open(stack).forEach(StreamDrain::run);
		}
	}

	private static List<Runnable> shuffled(List<OpenStreams> stacks) {
		List<Runnable> units = new ArrayList<>();
		stacks.forEach((stack) -> units.addAll(open(stack)));
		Collections.shuffle(units, ThreadLocalRandom.current());
		return units;
	}

	private static List<Runnable> open(OpenStreams stack) {
		try {
			return stack.open();
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: could not list some open streams", ex);
			return List.of();
		}
	}

	private static void ending(OpenStreams stack) {
		try {
			stack.ending();
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: could not end some streams", ex);
		}
	}

	private static void run(Runnable ender) {
		try {
			ender.run();
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: could not end some streams", ex);
		}
	}

	/** The long-lived streams of one web stack, each of which can be ended on its own. */
	public interface OpenStreams {

		/**
		 * Called once, at the ending point, before {@link #open()}: from now on a stream
		 * that starts must end at once.
		 */
		default void ending() {
		}

		/**
		 * One action for each stream open now, ending that stream. An action whose stream
		 * has ended meanwhile does nothing, and so does one run twice.
		 */
		List<Runnable> open();

	}

}
