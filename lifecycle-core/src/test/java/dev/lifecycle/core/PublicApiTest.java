package dev.lifecycle.core;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The engine's API is what a component's code and an application need; what only the host
 * that runs the engine calls lives on {@link LifecycleHost}, and the state machine's
 * rules stay inside.
 */
class PublicApiTest {

	private static final Set<String> HOST_CALLS = Set.of("recordActivity", "recordFailedRequest", "forceExit",
			"recordHalt", "ceilingDeadline", "openToJoin", "startJoined");

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
		assertThat(ComponentState.values()).containsExactly(ComponentState.REGISTERED, ComponentState.RUNNING,
				ComponentState.STOPPING, ComponentState.COMPLETED, ComponentState.TIMEOUT, ComponentState.DIED);
		assertThat(publicMethods(ComponentState.class)).contains("isTerminal").doesNotContain("canMoveTo");
	}

	@Test
	void aComponentShowsOnlyTheStatesAUserCanObserveFromRegistrationToItsEnd() throws InterruptedException {
		LifecycleManager manager = LifecycleManager.builder("api").build();
		ComponentHandle handle = manager.register("batch", ComponentOptions.defaults());
		ComponentView view = manager.components().get(0);
		handle.workCompleted();
		assertThat(view.state()).as("work declared done before the start").isEqualTo(ComponentState.REGISTERED);
		manager.start();
		assertThat(view.state()).as("started, its work done, its code still running").isEqualTo(ComponentState.RUNNING);
		ComponentHandle.ProcessScope scope = handle.processScope();
		ComponentHandle.CriticalSection section = handle.critical();
		scope.close();
		assertThat(view.state()).as("its code returned, a critical section still open")
			.isEqualTo(ComponentState.STOPPING);
		section.close();
		assertThat(view.state()).isEqualTo(ComponentState.COMPLETED);
		manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
		manager.awaitTermination();
	}

	@Test
	void theObservabilityPageListsExactlyTheStatesAUserCanObserve() throws IOException {
		String page = Files.readString(Path.of("..", "docs", "observability.md"));
		Matcher line = Pattern.compile("Component states: ([^.]*)\\.").matcher(page.replaceAll("\\s+", " "));
		assertThat(line.find()).as("the list of component states in docs/observability.md").isTrue();
		List<String> listed = Pattern.compile("`(\\w+)`")
			.matcher(line.group(1))
			.results()
			.map((m) -> m.group(1))
			.toList();
		assertThat(listed)
			.containsExactlyElementsOf(Arrays.stream(ComponentState.values()).map(ComponentState::name).toList());
	}

	private static Set<String> publicMethods(Class<?> type) {
		return Arrays.stream(type.getDeclaredMethods())
			.filter((method) -> Modifier.isPublic(method.getModifiers()))
			.map(Method::getName)
			.collect(Collectors.toSet());
	}

}
