package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.spring.FinalAction;
import dev.lifecycle.spring.ManagedComponent;
import dev.lifecycle.spring.ShutdownHandler;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What ahead-of-time processing records for a native image: the methods Lifecycle calls
 * reflectively (shutdown handlers, final actions) and the component classes whose
 * annotation it reads. Runs Spring's own AOT generator over a context holding such beans,
 * as {@code spring-boot:process-aot} does.
 */
class AotRuntimeHintsTests {

	private static RuntimeHints hints;

	@BeforeAll
	static void processAheadOfTime() {
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			context.registerBean(Checkpointer.class);
			context.registerBean(Ingestion.class);
			DefaultGenerationContext generation = new DefaultGenerationContext(
					new ClassNameGenerator(ClassName.get("com.example", "AotTest")), new InMemoryGeneratedFiles());
			new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
			hints = generation.getRuntimeHints();
		}
	}

	@Test
	void shutdownHandlerMethodsCanBeInvokedInANativeImage() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Checkpointer.class, "checkpoint"))
			.accepts(hints);
	}

	@Test
	void finalActionMethodsCanBeInvokedInANativeImage() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Checkpointer.class, "closeStore"))
			.accepts(hints);
	}

	@Test
	void managedComponentClassesAreRegisteredForReflection() {
		assertThat(RuntimeHintsPredicates.reflection().onType(Ingestion.class)).accepts(hints);
	}

	@Test
	void methodsWithoutLifecycleAnnotationsAreNotRegistered() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Checkpointer.class, "unrelated"))
			.rejects(hints);
	}

	static class Checkpointer {

		@ShutdownHandler(timeout = "60s")
		void checkpoint() {
		}

		@FinalAction
		void closeStore() {
		}

		void unrelated() {
		}

	}

	@ManagedComponent(value = "ingestion", phase = 20)
	static class Ingestion implements PassiveComponent {

		@Override
		public void start(ComponentHandle handle) {
		}

		@Override
		public void stop(ComponentHandle handle) {
		}

	}

}
