package dev.lifecycle.autoconfigure.web.servlet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @Async} work that a request submits after the application's executor took its
 * turn in the shutdown runs for the request before the submission returns, and is never
 * interrupted by the stop of the request's own thread: a request the web server's stop
 * cut (its pool interrupted its thread) still sends both its e-mails.
 */
class LateAsyncWorkTests {

	@Test
	void twoEmailsThatARequestCutByTheWebServersStopSendsLateAreBothSent() throws Exception {
		try (ConfigurableApplicationContext context = ServletDrainApplications.startOn(ShopApplication.class, "tomcat",
				"lifecycle.drain-delay=500ms", "spring.lifecycle.timeout-per-shutdown-phase=1s")) {
			ShopApplication.Orders orders = context.getBean(ShopApplication.Orders.class);
			ShopApplication.Mailer mailer = context.getBean(ShopApplication.Mailer.class);
			try {
				HttpClient.newHttpClient()
					.sendAsync(HttpRequest
						.newBuilder(
								URI.create("http://localhost:" + ServletDrainApplications.port(context) + "/orders"))
						.POST(HttpRequest.BodyPublishers.noBody())
						.timeout(Duration.ofSeconds(60))
						.build(), HttpResponse.BodyHandlers.discarding());
				await().atMost(Duration.ofSeconds(30)).until(() -> orders.placing() == 1);
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
				// The sequence is over: the web server stopped under the request, and the
				// executor took its turn.
				manager.awaitTermination(Duration.ofSeconds(60)).orElseThrow();
				orders.release();
				await().atMost(Duration.ofSeconds(30)).until(() -> mailer.outcomes().size() == 2);
				assertThat(orders.interruptedWhilePlacing()).as("the web server's stop interrupted the request")
					.isTrue();
				assertThat(mailer.outcomes()).containsExactly("sent 1", "sent 2");
			}
			finally {
				orders.release();
			}
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@EnableAsync
	@Import({ ShopApplication.Orders.class, ShopApplication.Mailer.class })
	static class ShopApplication {

		@RestController
		static class Orders {

			private final Mailer mailer;

			private final AtomicInteger placing = new AtomicInteger();

			private final CountDownLatch released = new CountDownLatch(1);

			private volatile boolean interrupted;

			Orders(Mailer mailer) {
				this.mailer = mailer;
			}

			int placing() {
				return this.placing.get();
			}

			boolean interruptedWhilePlacing() {
				return this.interrupted;
			}

			void release() {
				this.released.countDown();
			}

			/**
			 * Places an order through a call that does not heed interrupts (a database's,
			 * say), then sends two e-mails.
			 */
			@PostMapping("/orders")
			void place() {
				this.placing.incrementAndGet();
				boolean interrupted = false;
				while (true) {
					try {
						this.released.await(60, TimeUnit.SECONDS);
						break;
					}
					catch (InterruptedException ex) {
						interrupted = true;
					}
				}
				this.interrupted = interrupted;
				if (interrupted) {
					Thread.currentThread().interrupt();
				}
				this.mailer.send(1);
				this.mailer.send(2);
			}

		}

		@Service
		static class Mailer {

			private final List<String> outcomes = new CopyOnWriteArrayList<>();

			List<String> outcomes() {
				return this.outcomes;
			}

			/** Talks to the mail server for a while. */
			@Async
			void send(int mail) {
				try {
					Thread.sleep(200);
					this.outcomes.add("sent " + mail);
				}
				catch (InterruptedException ex) {
					this.outcomes.add("interrupted " + mail);
				}
			}

		}

	}

}
