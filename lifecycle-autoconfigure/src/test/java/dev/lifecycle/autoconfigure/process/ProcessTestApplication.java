package dev.lifecycle.autoconfigure.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.spring.ManagedComponent;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A tiny web application that {@link ProcessShutdownTests} runs as a real JVM, with the
 * signal trap on (the default outside Spring's test framework). Its one component,
 * {@code worker}, is steered by properties:
 * <ul>
 * <li>{@code process-test.drain} — how long the worker drains once told to stop (default
 * 0);</li>
 * <li>{@code process-test.fail-after} — signal a failure this long after the application
 * is ready (default never);</li>
 * <li>{@code process-test.hang-on-stop} — never return once told to stop (default
 * false);</li>
 * <li>{@code process-test.port-file} — where to write the HTTP port once the application
 * is ready;</li>
 * <li>{@code process-test.stuck-lifecycle} — add a {@code SmartLifecycle} bean,
 * {@code stuckClient}, whose {@code stop()} never returns (default false);</li>
 * <li>{@code process-test.stuck-pre-destroy} — add a bean, {@code stuckResource}, whose
 * {@code @PreDestroy} method never returns (default false);</li>
 * <li>{@code process-test.scheduling} — a {@code @Scheduled} ticker every 100 ms and an
 * {@code @Async} task of {@code process-test.async-task} (default 3s) started once the
 * application is ready, both on Spring Boot's own scheduler and executor (default
 * false);</li>
 * <li>{@code process-test.slow-start} — hold the start this long once every singleton
 * exists, before any lifecycle bean starts (default none);</li>
 * <li>{@code process-test.job} — the worker is a finite job: this long after the
 * application is ready it calls {@code workCompleted()} and returns (default none: it
 * runs until told to stop);</li>
 * <li>{@code process-test.watched} — add a component with a liveness deadline,
 * {@code watched}, which the health monitor then polls (default false);</li>
 * <li>{@code process-test.recipe} — the reference manual's payments recipe: an HTTP
 * component, {@code api}, at phase 20 whose {@code POST /pay?id=} answers once it has
 * handed a receipt to an {@code @Async} method on Spring Boot's own executor; the receipt
 * takes {@code process-test.receipt-time} (default 500ms) and is a line appended to
 * {@code process-test.receipts-file} (default false).</li>
 * <li>{@code process-test.holding} — a plain component, {@code orders}, with a 1 s
 * budget, whose {@code POST /hold} holds a critical section on the request thread for 20
 * s (default false).</li>
 * </ul>
 * When a separate management server runs, its port is written next to the port file, in
 * {@code <port-file>.management}.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class ProcessTestApplication {

	private static final Logger logger = LoggerFactory.getLogger(ProcessTestApplication.class);

	public static void main(String[] args) {
		SpringApplication.run(ProcessTestApplication.class, args);
	}

	/**
	 * Tells the test which port to use: written atomically once the application is ready.
	 */
	@EventListener
	public void ready(ApplicationReadyEvent event) throws IOException {
		Environment environment = event.getApplicationContext().getEnvironment();
		String portFile = environment.getProperty("process-test.port-file");
		if (portFile != null) {
			Path target = Path.of(portFile);
			Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
			String managementPort = environment.getProperty("local.management.port");
			if (managementPort != null) {
				Files.writeString(target.resolveSibling(target.getFileName() + ".management"), managementPort);
			}
			Files.writeString(temporary, environment.getRequiredProperty("local.server.port"));
			Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
		}
		logger.info("process-test: ready");
	}

	/**
	 * An active component with no graceful budget: only the global ceiling bounds its
	 * drain.
	 */
	/** A component the health monitor watches; it reports well inside its deadline. */
	@ManagedComponent(value = "watched", livenessDeadline = "5s")
	@ConditionalOnBooleanProperty("process-test.watched")
	static class Watched implements ActiveComponent {

		@Override
		public void run(ComponentHandle handle) throws InterruptedException {
			do {
				handle.reportHealthy();
			}
			while (!handle.awaitShutdown(Duration.ofMillis(500)));
		}

	}

	@ManagedComponent(value = "worker", phase = 10)
	static class Worker implements ActiveComponent {

		private final Duration drain;

		private final Duration failAfter;

		private final boolean hangOnStop;

		private final Duration job;

		private final CountDownLatch ready = new CountDownLatch(1);

		Worker(Environment environment) {
			this.drain = environment.getProperty("process-test.drain", Duration.class, Duration.ZERO);
			this.failAfter = environment.getProperty("process-test.fail-after", Duration.class);
			this.hangOnStop = environment.getProperty("process-test.hang-on-stop", Boolean.class, false);
			this.job = environment.getProperty("process-test.job", Duration.class);
		}

		/**
		 * The failure clock starts once the test can see the application, never during
		 * its start.
		 */
		@EventListener
		public void ready(ApplicationReadyEvent event) {
			this.ready.countDown();
		}

		@Override
		public void run(ComponentHandle handle) throws InterruptedException {
			logger.info("worker: running");
			if (this.job != null) {
				handle.onShutdown(this.ready::countDown);
				this.ready.await();
				if (!handle.awaitShutdown(this.job)) {
					logger.info("worker: job done");
					handle.workCompleted();
					return;
				}
			}
			if (this.failAfter != null) {
				handle.onShutdown(this.ready::countDown);
				this.ready.await();
				if (!handle.awaitShutdown(this.failAfter)) {
					handle.signalFailure("simulated failure after " + this.failAfter);
				}
			}
			handle.awaitShutdown();
			if (this.hangOnStop) {
				hangForever();
			}
			logger.info("worker: draining for {} ms", this.drain.toMillis());
			Thread.sleep(this.drain.toMillis());
			logger.info("worker: drained");
		}

		/**
		 * Never returns, not even when interrupted; the ceiling's log must show this
		 * frame.
		 */
		private static void hangForever() {
			logger.info("worker: hanging on stop");
			while (true) {
				try {
					Thread.sleep(Long.MAX_VALUE);
				}
				catch (InterruptedException ex) {
					// Ignored on purpose: this component is hung.
				}
			}
		}

	}

	@Bean
	static SmartInitializingSingleton slowStart(Environment environment) {
		return () -> {
			Duration slow = environment.getProperty("process-test.slow-start", Duration.class);
			if (slow != null) {
				logger.info("slow start: waiting {} ms", slow.toMillis());
				try {
					Thread.sleep(slow.toMillis());
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				logger.info("slow start: done");
			}
		};
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("process-test.stuck-lifecycle")
	static class StuckLifecycleConfiguration {

		@Bean
		StuckClient stuckClient() {
			return new StuckClient();
		}

	}

	/** A client library whose close never returns, at Spring's default phase. */
	static class StuckClient implements SmartLifecycle {

		private volatile boolean running;

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			logger.info("stuckClient: stop called");
			blockForever();
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("process-test.stuck-pre-destroy")
	static class StuckPreDestroyConfiguration {

		@Bean
		StuckResource stuckResource() {
			return new StuckResource();
		}

	}

	static class StuckResource {

		@PreDestroy
		void close() {
			logger.info("stuckResource: @PreDestroy called");
			blockForever();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("process-test.scheduling")
	@EnableScheduling
	@EnableAsync
	static class SchedulingConfiguration {

		@Bean
		Ticker ticker() {
			return new Ticker();
		}

		@Bean
		ApplicationListener<ApplicationReadyEvent> startAsyncTask(Ticker ticker, Environment environment) {
			Duration length = environment.getProperty("process-test.async-task", Duration.class, Duration.ofSeconds(3));
			return (event) -> ticker.work(length);
		}

	}

	static class Ticker {

		private final AtomicInteger ticks = new AtomicInteger();

		@Scheduled(fixedRate = 100)
		public void tick() {
			logger.info("ticker: tick {}", this.ticks.incrementAndGet());
		}

		@Async
		public void work(Duration length) {
			logger.info("async: started on {}", Thread.currentThread().getName());
			try {
				Thread.sleep(length.toMillis());
				logger.info("async: completed");
			}
			catch (InterruptedException ex) {
				logger.info("async: interrupted");
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("process-test.recipe")
	@EnableAsync
	static class RecipeConfiguration {

		@Bean
		Receipts receipts(Environment environment) {
			return new Receipts(
					environment.getProperty("process-test.receipt-time", Duration.class, Duration.ofMillis(500)),
					Path.of(environment.getRequiredProperty("process-test.receipts-file")));
		}

	}

	/**
	 * The recipe's HTTP component: it answers a payment once its receipt is on its way.
	 */
	@RestController
	@ManagedComponent(value = "api", phase = 20)
	@ConditionalOnBooleanProperty("process-test.recipe")
	static class PaymentsApi implements PassiveComponent {

		private final Receipts receipts;

		PaymentsApi(Receipts receipts) {
			this.receipts = receipts;
		}

		@PostMapping("/pay")
		String pay(@RequestParam String id) {
			this.receipts.send(id);
			return id;
		}

		@Override
		public void stop(ComponentHandle handle) {
			logger.info("api: stopped");
		}

	}

	/** A plain component: only its requests' critical sections hold it. */
	@RestController
	@ManagedComponent(value = "orders", phase = 20, gracefulShutdown = "1s")
	@ConditionalOnBooleanProperty("process-test.holding")
	static class HoldingApi {

		private final LifecycleManager manager;

		HoldingApi(LifecycleManager manager) {
			this.manager = manager;
		}

		@PostMapping("/hold")
		String hold() throws InterruptedException {
			try (ComponentHandle.CriticalSection section = this.manager.handle("orders").orElseThrow().critical()) {
				logger.info("orders: holding a critical section");
				Thread.sleep(20_000);
			}
			return "held";
		}

	}

	/** Sends receipts from Spring Boot's own executor, as {@code @Async} work. */
	static class Receipts {

		private final Duration time;

		private final Path file;

		Receipts(Duration time, Path file) {
			this.time = time;
			this.file = file;
		}

		@Async
		public void send(String id) {
			try {
				Thread.sleep(this.time.toMillis());
				synchronized (this) {
					Files.writeString(this.file, id + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
				}
			}
			catch (InterruptedException ex) {
				logger.info("receipt {}: interrupted", id);
			}
			catch (IOException ex) {
				logger.error("receipt {}: not written", id, ex);
			}
		}

	}

	/** Never returns, not even when interrupted: the log must show this frame. */
	static void blockForever() {
		while (true) {
			try {
				Thread.sleep(Long.MAX_VALUE);
			}
			catch (InterruptedException ex) {
				// Ignored on purpose: this bean is stuck.
			}
		}
	}

}
