import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import dev.lifecycle.sample.grpc.v1.*;
import io.grpc.*;
import io.grpc.health.v1.*;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;

/** Opens a health Watch and a WatchOffset stream, sends SIGTERM to the given pid, prints what it saw. */
public class Measure {
	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		long pid = Long.parseLong(args[1]);
		ManagedChannel channel = NettyChannelBuilder.forAddress("localhost", port).usePlaintext().build();
		AtomicLong notServing = new AtomicLong();
		AtomicLong streamEnd = new AtomicLong();
		AtomicReference<String> how = new AtomicReference<>("open");
		CountDownLatch serving = new CountDownLatch(2);
		HealthGrpc.newStub(channel).watch(HealthCheckRequest.getDefaultInstance(), new StreamObserver<>() {
			public void onNext(HealthCheckResponse r) {
				if (r.getStatus() == HealthCheckResponse.ServingStatus.SERVING) serving.countDown();
				if (r.getStatus() == HealthCheckResponse.ServingStatus.NOT_SERVING) notServing.compareAndSet(0, System.nanoTime());
			}
			public void onError(Throwable t) {}
			public void onCompleted() {}
		});
		IngestGrpc.newStub(channel).watchOffset(WatchOffsetRequest.getDefaultInstance(), new StreamObserver<>() {
			public void onNext(Offset o) { serving.countDown(); }
			public void onError(Throwable t) { streamEnd.set(System.nanoTime()); how.set(Status.fromThrowable(t).toString()); }
			public void onCompleted() { streamEnd.set(System.nanoTime()); how.set("completed"); }
		});
		serving.await(20, TimeUnit.SECONDS);
		long sigterm = System.nanoTime();
		new ProcessBuilder("kill", "-TERM", Long.toString(pid)).start().waitFor();
		ProcessHandle handle = ProcessHandle.of(pid).orElseThrow();
		handle.onExit().get(120, TimeUnit.SECONDS);
		long exited = System.nanoTime();
		Thread.sleep(200);
		System.out.printf("NOT_SERVING after %s ms; stream ended after %s ms (%s); process gone after %d ms%n",
				notServing.get() == 0 ? "never" : String.format("%.0f", (notServing.get() - sigterm) / 1e6),
				streamEnd.get() == 0 ? "never" : String.format("%.0f", (streamEnd.get() - sigterm) / 1e6), how.get(),
				(exited - sigterm) / 1_000_000);
		channel.shutdownNow();
	}
}
