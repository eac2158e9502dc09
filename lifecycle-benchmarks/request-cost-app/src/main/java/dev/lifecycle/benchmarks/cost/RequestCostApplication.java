package dev.lifecycle.benchmarks.cost;

import dev.lifecycle.sample.grpc.v1.Ack;
import dev.lifecycle.sample.grpc.v1.Event;
import dev.lifecycle.sample.grpc.v1.IngestGrpc;
import io.grpc.stub.StreamObserver;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The application whose cost per request {@code request-cost.sh} measures with and
 * without the starter: it uses no Lifecycle type, so the very same classes run either
 * way.
 */
@SpringBootApplication
public class RequestCostApplication {

	public static void main(String[] args) {
		SpringApplication.run(RequestCostApplication.class, args);
	}

	/** The HTTP endpoint under load: a constant text body. */
	@RestController
	static class Hello {

		@GetMapping("/hello")
		String hello() {
			return "hello";
		}

	}

	/** The gRPC endpoint under load: a unary call answered at once with its own id. */
	@Service
	static class Echo extends IngestGrpc.IngestImplBase {

		@Override
		public void append(Event request, StreamObserver<Ack> responseObserver) {
			responseObserver.onNext(Ack.newBuilder().setId(request.getId()).setOffset(request.getValue()).build());
			responseObserver.onCompleted();
		}

	}

}
