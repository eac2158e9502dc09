package dev.lifecycle.autoconfigure.grpc;

import io.grpc.ServerInterceptor;

/**
 * Lifecycle's gRPC call tracker as {@link LifecycleGrpcAutoConfiguration} installs it on
 * every server builder, for the per-request benchmarks.
 */
public final class GrpcRequestPath {

	private GrpcRequestPath() {
	}

	public static ServerInterceptor callTracker() {
		return new GrpcCallTracker();
	}

	/** How many calls the tracker has open: 0 between calls, 1 inside one. */
	public static int openCalls(ServerInterceptor tracker) {
		return ((GrpcCallTracker) tracker).openCalls();
	}

}
