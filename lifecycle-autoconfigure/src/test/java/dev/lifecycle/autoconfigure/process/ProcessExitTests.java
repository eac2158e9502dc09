package dev.lifecycle.autoconfigure.process;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import dev.lifecycle.core.ExitCodes;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The JVM's one exit and the one owner of its signals, without a JVM of their own: each
 * signal reaches every application, and the applications it reached end the JVM once,
 * with their worst code.
 */
class ProcessExitTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private final List<Integer> exits = new CopyOnWriteArrayList<>();

	private final List<Integer> halts = new CopyOnWriteArrayList<>();

	@Test
	void theApplicationsOneSignalReachedExitTheJvmOnceWhenTheLastHasItsCodeWithTheWorstOfThem()
			throws InterruptedException {
		ProcessExit exit = new ProcessExit();
		exit.together(() -> {
			exit.ending("orders");
			exit.ending("billing");
		});
		Thread orders = new Thread(() -> exit.exit("orders", ExitCodes.CLEAN, this.exits::add, PATIENCE));
		orders.start();
		await().atMost(Duration.ofSeconds(30)).until(() -> orders.getState() == Thread.State.TIMED_WAITING);
		assertThat(this.exits).as("the first to finish waits for the other").isEmpty();

		exit.exit("billing", ExitCodes.INCOMPLETE, this.exits::add, PATIENCE);
		orders.join(Duration.ofSeconds(30).toMillis());

		assertThat(this.exits).containsExactly(ExitCodes.INCOMPLETE);
		assertThat(orders.isAlive()).isFalse();
	}

	@Test
	void anApplicationWhoseShutdownNoSignalStartedExitsAloneWithItsOwnCode() {
		ProcessExit exit = new ProcessExit();
		exit.together(() -> exit.ending("orders"));
		exit.ending("billing");

		exit.exit("billing", ExitCodes.FAILURE, this.exits::add, PATIENCE);

		assertThat(this.exits).containsExactly(ExitCodes.FAILURE);
	}

	@Test
	void aSignalReachesEveryApplicationAndASecondOneHaltsOnceWithTheWorstCodeAfterEachRecordedIt() {
		SignalOwner owner = new SignalOwner(this.halts::add);
		List<String> heard = new CopyOnWriteArrayList<>();
		SignalOwner.Listener orders = (signal) -> {
			heard.add("orders " + signal);
			return signal.equals("SIGINT") ? OptionalInt.of(ExitCodes.FORCED) : OptionalInt.empty();
		};
		SignalOwner.Listener billing = (signal) -> {
			heard.add("billing " + signal);
			// Its report was written already: the halt takes its code.
			return signal.equals("SIGINT") ? OptionalInt.of(ExitCodes.CEILING) : OptionalInt.empty();
		};
		owner.listen(orders);
		try {
			owner.listen(billing);
			owner.dispatch("SIGTERM");
			assertThat(this.halts).isEmpty();
			owner.dispatch("SIGINT");
		}
		finally {
			owner.leave(orders);
			owner.leave(billing);
		}
		assertThat(heard).containsExactly("orders SIGTERM", "billing SIGTERM", "orders SIGINT", "billing SIGINT");
		assertThat(this.halts).containsExactly(ExitCodes.CEILING);
	}

	@Test
	void aJvmThatThreadsOfAFailedStartHoldIsExitedWithOneOnceTheRunsThreadHasEnded() throws InterruptedException {
		CountDownLatch release = new CountDownLatch(1);
		Thread holder = new Thread(() -> {
			try {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "scheduler-worker");
		holder.start();
		CountDownLatch failing = new CountDownLatch(1);
		Thread run = new Thread(() -> {
			try {
				failing.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "run");
		run.start();
		try {
			ProcessExit.afterFailedRun(run, Duration.ofMinutes(1), this.exits::add, this.halts::add);
			assertThat(this.exits).as("nothing while the run's thread lives").isEmpty();
			failing.countDown();
			await().atMost(Duration.ofSeconds(30)).until(() -> !this.exits.isEmpty());
			assertThat(this.exits).containsExactly(ExitCodes.FAILURE);
			assertThat(this.halts).isEmpty();
		}
		finally {
			release.countDown();
		}
	}

}
