package dev.lifecycle.autoconfigure.batch;

import java.time.Duration;

import dev.lifecycle.autoconfigure.ComponentLedger;
import dev.lifecycle.autoconfigure.TestRunners;
import dev.lifecycle.core.LifecycleManager;
import org.junit.jupiter.api.Test;

import org.springframework.batch.core.launch.JobOperator;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When running job executions are a component: with Spring Batch on the class path and
 * Lifecycle on, with a budget of its own that {@code lifecycle.components.batch-jobs}
 * overrides; never without Spring Batch.
 */
class LifecycleBatchAutoConfigurationTests {

	private final ApplicationContextRunner runner = TestRunners.lifecycle()
		.withConfiguration(AutoConfigurations.of(LifecycleBatchAutoConfiguration.class));

	@Test
	void runningJobExecutionsAreOneStandardComponentWithATwentySecondBudget() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(BatchJobsComponent.class);
			assertThat(context.getBean(LifecycleManager.class).components())
				.anySatisfy((component) -> assertThat(component.name()).isEqualTo("batch-jobs"));
			assertThat(
					context.getBean(ComponentLedger.class).get("batch-jobs").orElseThrow().options().gracefulShutdown())
				.contains(Duration.ofSeconds(20));
		});
	}

	@Test
	void theBudgetIsTheComponentsOwnProperty() {
		this.runner.withPropertyValues("lifecycle.components.batch-jobs.graceful-shutdown=3s").run((context) -> {
			assertThat(
					context.getBean(ComponentLedger.class).get("batch-jobs").orElseThrow().options().gracefulShutdown())
				.contains(Duration.ofSeconds(3));
		});
	}

	@Test
	void withoutSpringBatchNothingIsRegistered() {
		this.runner.withClassLoader(new FilteredClassLoader(JobOperator.class)).run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(BatchJobsComponent.class);
			assertThat(context.getBean(LifecycleManager.class).components())
				.noneSatisfy((component) -> assertThat(component.name()).isEqualTo("batch-jobs"));
		});
	}

	@Test
	void lifecycleOffRegistersNothing() {
		this.runner.withPropertyValues("lifecycle.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(BatchJobsComponent.class);
		});
	}

}
