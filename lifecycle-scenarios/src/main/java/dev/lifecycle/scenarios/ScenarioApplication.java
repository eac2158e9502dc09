package dev.lifecycle.scenarios;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The application the scenario suite runs on every stack: HTTP endpoints (MVC or WebFlux,
 * whichever the web application type is, with server-sent events a client resumes by
 * {@code Last-Event-ID} and a WebSocket endpoint), a gRPC service on the Netty server and
 * on an in-process server, {@code @Async} work and a {@code @Scheduled} tick, a component
 * that calls the in-process server while it stops, and executors of the kinds
 * applications declare. It uses Lifecycle only through {@code @ManagedComponent}, so the
 * same classes run against another build's Lifecycle jars.
 * <p>
 * Once ready it writes {@code http=<port>} and {@code grpc=<port>} to
 * {@code scenario.ports-file}.
 */
@SpringBootApplication(proxyBeanMethods = false)
@EnableScheduling
@EnableAsync
public class ScenarioApplication {

	private static final Logger logger = LoggerFactory.getLogger(ScenarioApplication.class);

	private volatile int grpcPort = -1;

	public static void main(String[] args) {
		SpringApplication.run(ScenarioApplication.class, args);
	}

	@EventListener
	public void grpcStarted(GrpcServerStartedEvent event) {
		if (event.getPort() > 0) {
			this.grpcPort = event.getPort();
		}
	}

	@EventListener
	public void ready(ApplicationReadyEvent event) throws IOException {
		Environment environment = event.getApplicationContext().getEnvironment();
		String file = environment.getProperty("scenario.ports-file");
		if (file != null) {
			Path target = Path.of(file);
			Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
			Files.writeString(temporary,
					"http=" + environment.getProperty("local.server.port", "-1") + "\ngrpc=" + this.grpcPort + "\n");
			Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
		}
		logger.info("scenario: ready");
	}

}
