package dev.lifecycle.docs;

import java.time.Duration;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The getting-started page's component: orders accepted before the shutdown are
 * processed, the component completes, and the log says so.
 */
@ExtendWith(OutputCaptureExtension.class)
class GettingStartedDocsTests {

	@Test
	void theOrderConsumerProcessesEveryAcceptedOrderAndCompletesOnShutdown(CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext context = DocsApplications.run(WebApplicationType.NONE,
				OrderConsumer.class)) {
			OrderConsumer consumer = context.getBean(OrderConsumer.class);
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			consumer.submit("o-1");
			await().atMost(Duration.ofSeconds(10)).until(() -> output.getOut().contains("processed o-1"));
			consumer.submit("o-2");
			consumer.submit("o-3");
			manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
			ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(30)).orElseThrow();
			assertThat(report.exitCode()).isZero();
			assertThat(report.clean()).isTrue();
			assertThat(report.component("order-consumer").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
			assertThat(output.getOut()).contains("processed o-2", "processed o-3", "order-consumer: drained");
		}
	}

}
