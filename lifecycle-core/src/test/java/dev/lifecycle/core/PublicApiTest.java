package dev.lifecycle.core;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The engine's API is what a component's code and an application need; what only the host that
 * runs the engine calls lives on {@link LifecycleHost}, and the state machine's rules stay inside.
 */
class PublicApiTest {

	private static final Set<String> HOST_CALLS = Set.of("recordActivity", "recordFailedRequest", "forceExit",
			"recordHalt");

	@Test
	void theManagerOffersNoHostCallAndTheHostOffersThemAll() {
		assertThat(publicMethods(LifecycleManager.class)).doesNotContainAnyElementsOf(HOST_CALLS);
		assertThat(publicMethods(LifecycleHost.class)).containsAll(HOST_CALLS);
	}

	@Test
	void hostCallsReachTheManagerTheyCameFrom() throws InterruptedException {
		LifecycleManager manager = LifecycleManager.builder("api").build();
		CountDownLatch handlerRunning = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		manager.addShutdownHandler("hold", Duration.ofSeconds(30), () -> {
			handlerRunning.countDown();
			release.await();
		});
		manager.start();
		LifecycleHost host = LifecycleHost.of(manager);
		host.recordFailedRequest();
		manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
		assertThat(handlerRunning.await(30, TimeUnit.SECONDS)).isTrue();
		host.recordFailedRequest();
		release.countDown();
		assertThat(manager.awaitTermination().failedRequests()).as("only the failure after the trigger").isEqualTo(1);
	}

	@Test
	void componentStatesShowWhereAComponentIsButNotTheTransitionRules() {
		assertThat(publicMethods(ComponentState.class)).contains("isTerminal").doesNotContain("canMoveTo");
	}

	private static Set<String> publicMethods(Class<?> type) {
		return Arrays.stream(type.getDeclaredMethods())
			.filter((method) -> Modifier.isPublic(method.getModifiers()))
			.map(Method::getName)
			.collect(Collectors.toSet());
	}

}
