package dev.lifecycle.autoconfigure.web.servlet;

import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.actuate.LifecycleEndpoint;
import dev.lifecycle.autoconfigure.actuate.LifecycleEndpoint.HookDescriptor;
import dev.lifecycle.core.LifecycleManager;
import org.apache.catalina.connector.RequestFacade;
import org.apache.coyote.http11.filters.IdentityInputFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Tomcat whose input buffer lacks the fields Lifecycle reads: the pipelining hook
 * misses, one WARN names the feature that is off and the Tomcat version to use, the
 * feature is off, and the endpoint lists the hook as missed.
 */
@ExtendWith(OutputCaptureExtension.class)
class TomcatPipeliningHookTests {

	@Test
	void aTomcatWithoutTheInputBufferFieldsTurnsPipeliningOffWithOneWarningAndTheEndpointShowsTheHookMissed(
			CapturedOutput output) {
		InternalHooks hooks = new InternalHooks();

		// Object stands in for an Http11InputBuffer that has neither field.
		TomcatRequests first = TomcatRequests.resolve(hooks, RequestFacade.class, Object.class,
				IdentityInputFilter.class);
		TomcatRequests again = TomcatRequests.resolve(hooks, RequestFacade.class, Object.class,
				IdentityInputFilter.class);

		assertThat(first).as("the feature is off").isNull();
		assertThat(again).isNull();
		assertThat(output.getOut().lines().filter((line) -> line.contains("hook 'tomcat.pipelining'")))
			.as("one warning, naming the feature and what to do")
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("WARN")
				.contains("'Connection: close' only on the last request of an HTTP/1.1 pipeline on Tomcat is off")
				.contains("activeFilters")
				.contains("Tomcat 11.0"));
		HookDescriptor hook = new LifecycleEndpoint(LifecycleManager.builder("hooks").build(), null, hooks).lifecycle()
			.hooks()
			.stream()
			.filter((candidate) -> candidate.name().equals("tomcat.pipelining"))
			.findFirst()
			.orElseThrow();
		assertThat(hook.state()).isEqualTo("MISSED");
		assertThat(hook.reason()).contains("activeFilters");
		assertThat(hook.feature()).contains("pipeline on Tomcat");
	}

	@Test
	void onTheTomcatSpringBootManagesThePipeliningHookResolves() {
		InternalHooks hooks = new InternalHooks();

		assertThat(TomcatRequests.resolve(hooks)).isNotNull();
		assertThat(hooks.hooks()).singleElement()
			.satisfies((hook) -> assertThat(hook.state()).isEqualTo(InternalHooks.State.RESOLVED));
	}

}
