package dev.lifecycle.autoconfigure.grpc;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.util.List;

import io.grpc.EquivalentAddressGroup;
import io.grpc.ManagedChannel;
import io.grpc.NameResolver;
import io.grpc.netty.NettyChannelBuilder;

/** Real grpc-java clients over Netty connections, as an application would hold them. */
final class GrpcClients {

	private GrpcClients() {
	}

	/** A channel to one server, without retries: a call that fails is seen failing. */
	static ManagedChannel to(int port) {
		return NettyChannelBuilder.forAddress("localhost", port).usePlaintext().disableRetry().build();
	}

	/**
	 * A channel that knows two servers and connects to the first that answers, in order,
	 * as a client reconnecting through a load balancer would: it stays pinned to its
	 * connection until that connection goes away. Without retries, so that a call that
	 * fails is seen failing.
	 */
	@SuppressWarnings("deprecation")
	static ManagedChannel pinned(int first, int second) {
		List<SocketAddress> addresses = List.of(new InetSocketAddress("localhost", first),
				new InetSocketAddress("localhost", second));
		return NettyChannelBuilder.forTarget("pinned:///servers")
			.nameResolverFactory(new Addresses(addresses))
			.usePlaintext()
			.disableRetry()
			.build();
	}

	private static final class Addresses extends NameResolver.Factory {

		private final List<SocketAddress> addresses;

		Addresses(List<SocketAddress> addresses) {
			this.addresses = addresses;
		}

		@Override
		public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
			return new NameResolver() {

				@Override
				public String getServiceAuthority() {
					return "localhost";
				}

				@Override
				public void start(Listener2 listener) {
					listener.onResult(ResolutionResult.newBuilder()
						.setAddresses(Addresses.this.addresses.stream().map(EquivalentAddressGroup::new).toList())
						.build());
				}

				@Override
				public void shutdown() {
				}

			};
		}

		@Override
		public String getDefaultScheme() {
			return "pinned";
		}

	}

}
