package dev.lifecycle.autoconfigure.process;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The halt past the ceiling, without a JVM of its own: it comes at the ceiling's one
 * deadline plus the time for the exit to happen first, and what runs before it (the
 * thread dump, the hooks) can delay it by no more than the time given to it, even a hook
 * that never returns.
 */
class CeilingHaltTests {

	private final CountDownLatch stuck = new CountDownLatch(1);

	private final List<Integer> exits = new CopyOnWriteArrayList<>();

	private final GenericApplicationContext context = new GenericApplicationContext();

	@AfterEach
	void release() {
		this.stuck.countDown();
	}

	@Test
	void aHaltHookThatNeverReturnsDelaysTheHaltByNoMoreThanTheTimeBeforeTheHalt() throws Exception {
		Duration ceiling = Duration.ofMillis(200);
		// A bean whose destruction never ends holds the close, and so the process.
		this.context.registerBean("stuckOnDestroy", CountDownLatch.class, () -> this.stuck,
				(definition) -> definition.setDestroyMethodName("await"));
		this.context.refresh();
		LifecycleManager manager = LifecycleManager.builder("orders").globalShutdownTimeout(ceiling).build();
		CompletableFuture<Integer> halted = new CompletableFuture<>();
		CeilingHaltHook neverReturns = () -> {
			try {
				this.stuck.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		};
		ShutdownExit exit = new ShutdownExit(this.context, this.exits::add, true, manager, halted::complete,
				new BeanDestructionTracker(), () -> List.of(neverReturns));
		manager.addListener(exit);
		manager.start();
		exit.release();

		manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
		long deadline = LifecycleHost.of(manager).ceilingDeadline().orElseThrow();

		// Generous for a loaded machine, but far below "never", which is what a stuck
		// hook meant.
		assertThat(halted.get(30, TimeUnit.SECONDS)).isEqualTo(ExitCodes.CEILING);
		assertThat(System.nanoTime()).as("not before the deadline plus the time for the exit")
			.isGreaterThanOrEqualTo(deadline + CeilingBounds.HALT.toNanos());
		assertThat(this.exits).as("the close is still held").isEmpty();
	}

}
