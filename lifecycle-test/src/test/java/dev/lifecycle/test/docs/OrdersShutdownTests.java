package dev.lifecycle.test.docs;

import java.time.Duration;

import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.test.LifecycleTestSupport;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;

import static dev.lifecycle.test.LifecycleAssertions.assertThat;

// tag::testing[]
@SpringBootTest(properties = "spring.application.name=orders")
@DirtiesContext // the engine cannot start twice: later tests get a fresh context
class OrdersShutdownTests {

	@Autowired
	ApplicationContext context;

	@Test
	void drainsCleanly() {
		LifecycleTestSupport lifecycle = LifecycleTestSupport.of(this.context);
		lifecycle.triggerShutdown();
		ShutdownReport report = lifecycle.awaitReport(Duration.ofSeconds(10));
		assertThat(report).isClean().hasExitCode(0).componentOutcome("orders-api").isEqualTo(Outcome.COMPLETED);
	}

}
// end::testing[]
