package dev.lifecycle.autoconfigure.grpc;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the gRPC server drain under the {@code lifecycle.grpc} prefix.
 */
@ConfigurationProperties("lifecycle.grpc")
public class LifecycleGrpcProperties {

	/**
	 * Whether Spring gRPC servers drain with the shutdown: health NOT_SERVING at its
	 * first instant, GOAWAY when the drain delay ends, calls in flight finished within
	 * the server's budget and the rest cancelled and named. Off, the server stops as
	 * Spring gRPC stops it, at its place in the standard drain.
	 */
	private boolean enabled = true;

	/**
	 * Whether the standard gRPC health service (grpc.health.v1) turns every service
	 * NOT_SERVING at the first instant of a shutdown.
	 */
	private boolean health = true;

	/**
	 * Whether open server-streaming and bidirectional calls end with UNAVAILABLE (a
	 * status clients retry on) at lifecycle.streams.end-at, like server-sent events. Off,
	 * they hold the server until its budget and are then cancelled.
	 */
	private boolean endStreams = true;

	/**
	 * How long a client has, after the GOAWAY, to stop opening calls on its connection,
	 * and, after its stream ended, to read that end. Later calls are refused with
	 * UNAVAILABLE; once no call is running, the connections still open are closed and the
	 * ended streams nobody read are reset, so that no client holds the server's stop.
	 */
	private Duration clientGrace = Duration.ofSeconds(2);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public boolean isHealth() {
		return this.health;
	}

	public void setHealth(boolean health) {
		this.health = health;
	}

	public Duration getClientGrace() {
		return this.clientGrace;
	}

	public void setClientGrace(Duration clientGrace) {
		this.clientGrace = clientGrace;
	}

	public boolean isEndStreams() {
		return this.endStreams;
	}

	public void setEndStreams(boolean endStreams) {
		this.endStreams = endStreams;
	}

}
