package dev.lifecycle.autoconfigure.component;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.lifecycle.autoconfigure.InternalHooks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.task.TaskDecorator;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hook into the task decorator of Spring's executors: where it resolves, the gate
 * runs the application's own decorator; where it misses, one WARN says the gate is off,
 * and the executor keeps the application's decorator rather than losing it to a gate that
 * cannot see it.
 */
@ExtendWith(OutputCaptureExtension.class)
class ExecutorDecoratorHookTests {

	@Test
	void whenTheDecoratorFieldIsMissingTheGateIsOffWithOneWarningAndTheApplicationsDecoratorStillRuns(
			CapturedOutput output) throws Exception {
		InternalHooks hooks = new InternalHooks();
		// Object stands in for an executor type without the field.
		ExecutorDecorators decorators = ExecutorDecorators.resolve(hooks, List.of(Object.class));
		ExecutorDecorators.resolve(hooks, List.of(Object.class));

		assertThat(decorators.readable()).as("the gate is off").isFalse();
		assertThat(decoratedRun(decorators)).as("the application's decorator ran").isEqualTo("decorated");
		assertThat(output.getOut().lines().filter((line) -> line.contains("hook 'spring.task-decorator'")))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("WARN")
				.contains("Lifecycle's task gate on adopted Spring executors is off")
				.contains("Spring Framework version Spring Boot manages"));
		assertThat(hooks.hooks()).singleElement()
			.satisfies((hook) -> assertThat(hook.state()).isEqualTo(InternalHooks.State.MISSED));
	}

	@Test
	void onTheSpringFrameworkSpringBootManagesTheGateRunsTheApplicationsDecoratorToo() throws Exception {
		InternalHooks hooks = new InternalHooks();
		ExecutorDecorators decorators = ExecutorDecorators.resolve(hooks);

		assertThat(decorators.readable()).isTrue();
		assertThat(decoratedRun(decorators)).isEqualTo("decorated");
		assertThat(hooks.hooks()).singleElement()
			.satisfies((hook) -> assertThat(hook.state()).isEqualTo(InternalHooks.State.RESOLVED));
	}

	/**
	 * Runs one task on a thread pool with a decorator of the application's, prepared for
	 * adoption.
	 */
	private static String decoratedRun(ExecutorDecorators decorators) throws InterruptedException {
		ThreadLocal<String> mark = new ThreadLocal<>();
		TaskDecorator application = (task) -> () -> {
			mark.set("decorated");
			task.run();
		};
		ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
		executor.setTaskDecorator(application);
		AdoptedExecutor.prepare(executor, decorators);
		executor.initialize();
		try {
			AtomicReference<String> seen = new AtomicReference<>();
			CountDownLatch ran = new CountDownLatch(1);
			executor.execute(() -> {
				seen.set(mark.get());
				ran.countDown();
			});
			assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
			return seen.get();
		}
		finally {
			executor.shutdown();
		}
	}

}
