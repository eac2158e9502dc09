package dev.lifecycle.sample.it;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lifecycle.sample.grpc.v1.Ack;
import dev.lifecycle.sample.grpc.v1.Event;
import dev.lifecycle.sample.grpc.v1.IngestGrpc;
import dev.lifecycle.sample.grpc.v1.Offset;
import dev.lifecycle.sample.grpc.v1.WatchOffsetRequest;
import dev.lifecycle.testfixtures.ChildJvm;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The gRPC ingestion service of the real jar, through a real SIGTERM: an Ack means the
 * event is stored, a repeat is a duplicate, bad input is refused with the reason; during
 * the drain delay the health service says NOT_SERVING while appends on the open channel
 * still succeed, an offset stream ends with UNAVAILABLE when it ends and holds nothing,
 * and after a restart every acknowledged event is counted exactly once.
 */
class GrpcIngestIT {

	private static final Pattern GRPC_PORT = Pattern
		.compile("gRPC Server started, listening on address: .*, port: (\\d+)");

	private static final Duration DRAIN_DELAY = Duration.ofSeconds(2);

	@TempDir
	Path work;

	@Test
	void anAckMeansStoredAndTheServiceDrainsWithTheShutdownLosingNoAcknowledgedEvent() throws Exception {
		Path data = this.work.resolve("data");
		Map<String, LoadGenerator.Ack> acked = new ConcurrentHashMap<>();
		try (ChildJvm sample = SampleApp
			.launch(this.work.resolve("first"), data, "--sample.grpc.enabled=true", "--spring.grpc.server.port=0",
					"--lifecycle.drain-delay=" + DRAIN_DELAY.toSeconds() + "s")
			.awaitReady()) {
			ManagedChannel channel = NettyChannelBuilder.forAddress("localhost", grpcPort(sample))
				.usePlaintext()
				.disableRetry()
				.build();
			try {
				IngestGrpc.IngestBlockingStub ingest = IngestGrpc.newBlockingStub(channel)
					.withDeadlineAfter(10, TimeUnit.SECONDS);
				Ack first = ingest.append(event("grpc-first", 7));
				assertThat(ingest.append(event("grpc-first", 7))).as("a repeat")
					.isEqualTo(first.toBuilder().setDuplicate(true).build());
				acked.put("grpc-first", new LoadGenerator.Ack(first.getOffset(), 7));
				assertThatExceptionOfType(StatusRuntimeException.class)
					.isThrownBy(() -> ingest.append(event("grpc-first", 8)))
					.satisfies((ex) -> assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.ALREADY_EXISTS));
				assertThatExceptionOfType(StatusRuntimeException.class)
					.isThrownBy(() -> ingest.append(Event.newBuilder().setId("bad").setKey("no spaces").build()))
					.satisfies((ex) -> assertThat(ex.getStatus()).satisfies((status) -> {
						assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
						assertThat(status.getDescription())
							.isEqualTo("field 'key' may only contain letters, digits and . _ : -");
					}));

				List<ServingStatus> health = new CopyOnWriteArrayList<>();
				HealthGrpc.newStub(channel).watch(HealthCheckRequest.getDefaultInstance(), new Ignoring<>() {
					@Override
					public void onNext(HealthCheckResponse response) {
						health.add(response.getStatus());
					}
				});
				await().atMost(Duration.ofSeconds(10)).until(() -> health.contains(ServingStatus.SERVING));

				List<Long> offsets = new CopyOnWriteArrayList<>();
				AtomicLong streamEndedAt = new AtomicLong();
				AtomicReference<Throwable> streamEnd = new AtomicReference<>();
				IngestGrpc.newStub(channel).watchOffset(WatchOffsetRequest.getDefaultInstance(), new Ignoring<>() {
					@Override
					public void onNext(Offset offset) {
						offsets.add(offset.getOffset());
					}

					@Override
					public void onError(Throwable error) {
						streamEnd.set(error);
						streamEndedAt.set(System.nanoTime());
					}
				});

				AtomicLong ackedAfterSigterm = new AtomicLong();
				AtomicLong sigtermAt = new AtomicLong();
				AtomicReference<StatusRuntimeException> refused = new AtomicReference<>();
				Thread client = new Thread(() -> {
					for (int i = 0; refused.get() == null; i++) {
						String id = "grpc-" + i;
						try {
							Ack ack = IngestGrpc.newBlockingStub(channel)
								.withDeadlineAfter(10, TimeUnit.SECONDS)
								.append(event(id, i));
							acked.put(id, new LoadGenerator.Ack(ack.getOffset(), i));
							if (sigtermAt.get() != 0) {
								ackedAfterSigterm.incrementAndGet();
							}
							Thread.sleep(10);
						}
						catch (StatusRuntimeException ex) {
							refused.set(ex);
						}
						catch (InterruptedException ex) {
							return;
						}
					}
				}, "grpc-client");
				client.start();
				await().atMost(Duration.ofSeconds(30)).until(() -> acked.size() >= 50 && offsets.size() >= 2);

				sigtermAt.set(System.nanoTime());
				sample.sigterm();
				int offsetsAtSigterm = offsets.size();
				await().atMost(DRAIN_DELAY).until(() -> health.contains(ServingStatus.NOT_SERVING));
				await().atMost(Duration.ofSeconds(30)).until(() -> refused.get() != null);
				client.join(10_000);
				assertThat(sample.awaitExit(Duration.ofSeconds(60))).as("exit code; log:\n%s", sample.log()).isZero();
				long exitedAt = System.nanoTime();
				assertThat(streamEnd.get()).as("the offset stream's end")
					.isInstanceOfSatisfying(StatusRuntimeException.class,
							(ex) -> assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
				assertThat(offsets.size()).as("offsets streamed during the drain delay")
					.isGreaterThan(offsetsAtSigterm);
				assertThat(Duration.ofNanos(streamEndedAt.get() - sigtermAt.get()))
					.as("stream ended at the drain delay's end")
					.isGreaterThanOrEqualTo(DRAIN_DELAY.minusMillis(500));
				assertThat(Duration.ofNanos(exitedAt - sigtermAt.get())).as("SIGTERM to exit with a stream open")
					.isLessThan(DRAIN_DELAY.plusSeconds(15));
				System.out.printf(
						"gRPC sample: stream ended %d ms and the process exited %d ms after SIGTERM "
								+ "(drain delay %d s)%n",
						Duration.ofNanos(streamEndedAt.get() - sigtermAt.get()).toMillis(),
						Duration.ofNanos(exitedAt - sigtermAt.get()).toMillis(), DRAIN_DELAY.toSeconds());
				assertThat(ackedAfterSigterm.get()).as("appends acknowledged during the drain delay").isPositive();
				assertThat(refused.get().getStatus().getCode()).as("how a call ends once this instance is gone")
					.isEqualTo(Status.Code.UNAVAILABLE);
				assertThat(sample.log()).contains("Lifecycle: gRPC health service turned NOT_SERVING")
					.contains("Lifecycle: gRPC server 'nettyGrpcServerLifecycle' sent GOAWAY");
			}
			finally {
				channel.shutdownNow();
			}
		}

		try (ChildJvm restarted = SampleApp.launch(this.work.resolve("second"), data).awaitReady()) {
			Verify.everyAcknowledgedEventCountedExactlyOnce(restarted, acked, "grpc-");
			restarted.sigterm();
			assertThat(restarted.awaitExit(Duration.ofSeconds(60))).isZero();
		}
	}

	private static Event event(String id, long value) {
		return Event.newBuilder().setId(id).setKey(id).setValue(value).build();
	}

	private static int grpcPort(ChildJvm sample) {
		Matcher matcher = GRPC_PORT.matcher(sample.log());
		assertThat(matcher.find()).as("the gRPC port in the log:\n%s", sample.log()).isTrue();
		return Integer.parseInt(matcher.group(1));
	}

	/** Ignores what the test does not look at. */
	private abstract static class Ignoring<T> implements StreamObserver<T> {

		@Override
		public void onNext(T value) {
		}

		@Override
		public void onError(Throwable error) {
		}

		@Override
		public void onCompleted() {
		}

	}

}
