package dev.lifecycle.autoconfigure.web;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
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

/**
 * Ends long-lived responses (server-sent events, streaming responses, WebSocket sessions)
 * at one documented point of a shutdown, so that no stream holds the web server's
 * graceful shutdown: its first instant, or by default the end of the drain delay, once
 * load balancers route elsewhere. A stream that starts after that point ends at once, or
 * at the next step if nothing said it was a stream before its body began. Public so that
 * Lifecycle's other integrations (gRPC) end their streams at the same point.
 */
@Internal
public final class StreamDrain implements LifecycleListener {

	private static final Log logger = LogFactory.getLog(StreamDrain.class);

	private final LifecycleStreamsProperties.EndAt endAt;

	private final List<Runnable> sessionEnders = new CopyOnWriteArrayList<>();

	private final List<Runnable> enders = new CopyOnWriteArrayList<>();

	private final List<Runnable> serverEnders = new CopyOnWriteArrayList<>();

	private final AtomicBoolean ended = new AtomicBoolean();

	StreamDrain(LifecycleStreamsProperties.EndAt endAt) {
		this.endAt = endAt;
	}

	/**
	 * Adds how one web stack ends its open streams. It runs at the ending point and again
	 * as each later step of the sequence starts, for a response that began streaming
	 * since; it ends only what streams.
	 * @param ender ends the open streams of one stack; it must tolerate running more than
	 * once
	 */
	public void register(Runnable ender) {
		this.enders.add(ender);
	}

	/**
	 * Adds how one web stack closes its open sessions (WebSocket, SockJS). Sessions close
	 * before streams end: a session carried by a streaming response (SockJS over HTTP)
	 * sends its own close frame first, where ending the response under it would leave its
	 * client to find the session gone.
	 */
	public void registerSessions(Runnable ender) {
		this.sessionEnders.add(ender);
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

	/** Whether the streams have been ended; a stream starting now ends at once. */
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
		if (isEnded()) {
			run(this.enders);
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
	}

	private List<Runnable> inOrder() {
		return Stream.of(this.sessionEnders, this.enders, this.serverEnders).flatMap(List::stream).toList();
	}

	private void end(String when) {
		if (!this.ended.compareAndSet(false, true)) {
			return;
		}
		logger.info("Lifecycle: ending long-lived streams (" + when + ")");
		run(inOrder());
	}

	private static void run(List<Runnable> enders) {
		for (Runnable ender : enders) {
			try {
				ender.run();
			}
			catch (RuntimeException ex) {
				logger.warn("Lifecycle: could not end some streams", ex);
			}
		}
	}

}
