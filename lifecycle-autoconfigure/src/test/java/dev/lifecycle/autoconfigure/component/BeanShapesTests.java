package dev.lifecycle.autoconfigure.component;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.lifecycle.autoconfigure.InvalidLifecycleConfigurationException;
import dev.lifecycle.autoconfigure.TestRunners;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.spring.ManagedComponent;
import dev.lifecycle.spring.ShutdownHandler;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;
import org.springframework.context.annotation.ScopedProxyMode;
import org.springframework.stereotype.Component;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bean shapes that ordinary applications are made of, in a context that forbids circular
 * references as Spring Boot's does: registration decides what a bean is from its
 * definition and never creates, initialises or asks a bean early, so each shape starts
 * and stops cleanly as it does without Lifecycle.
 */
class BeanShapesTests {

	private final TestRunners.Events events = new TestRunners.Events();

	private final ApplicationContextRunner runner = TestRunners.lifecycle()
		.withAllowCircularReferences(false)
		.withBean(TestRunners.Events.class, () -> this.events);

	@Test
	void factoryBeansStartAndTheShutdownHandlersOfTheirSharedProductsRunOnce() {
		this.runner.withUserConfiguration(FactoryBeans.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(CheckpointUser.class).checkpointer)
				.isSameAs(context.getBean("sharedCheckpointer"));
			assertThat(context.getBean("perCallCheckpointer")).isNotSameAs(context.getBean("perCallCheckpointer"));
			ExecutorService pool = context.getBean("reportPool", ExecutorService.class);
			assertThat(pool.submit(() -> "ran").get()).isEqualTo("ran");
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			context.close();
			assertThat(manager.report().map(ShutdownReport::clean)).hasValue(true);
		});
		// The shared product's handler once; a product made afresh on every lookup is no
		// singleton, so its handler is not Lifecycle's to call.
		assertThat(this.events.list()).containsExactly("checkpoint shared");
	}

	@Test
	void scopedProxiesInjectedIntoSingletonsStartAndTheirTargetsAreLeftToTheirScope() {
		this.runner.withUserConfiguration(ScopedBeans.class).run((context) -> {
			assertThat(context).hasNotFailed();
			Stamper stamper = context.getBean(Stamper.class);
			assertThat(stamper.stamp.number()).isNotEqualTo(stamper.stamp.number());
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			context.close();
			assertThat(manager.report().map(ShutdownReport::clean)).hasValue(true);
		});
		// A prototype's handler would have been called on a new instance made for the
		// call.
		assertThat(this.events.list()).isEmpty();
	}

	@Test
	void componentOfAnotherScopeFailsTheStartNamingTheBeanAndTheFix() {
		this.runner.withUserConfiguration(PrototypeComponentConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(InvalidLifecycleConfigurationException.class)
				.hasMessageContaining("@ManagedComponent on bean 'perRequest'")
				.hasMessageContaining("scope 'prototype'");
			assertThat(((InvalidLifecycleConfigurationException) context.getStartupFailure()).getAction())
				.contains("Remove the @Scope");
		});
	}

	@Test
	void lazyInitializationStillRegistersEveryComponentAndShutdownHandler() {
		this.runner
			.withInitializer(
					(context) -> context.addBeanFactoryPostProcessor(new LazyInitializationBeanFactoryPostProcessor()))
			.withUserConfiguration(Unreferenced.class, UnreferencedComponent.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				assertThat(manager.isReady()).isTrue();
				assertThat(manager.components().stream().map(ComponentView::name)).contains("unreferenced");
				context.close();
				assertThat(manager.report().map(ShutdownReport::clean)).hasValue(true);
			});
		assertThat(this.events.list()).containsExactly("checkpoint unreferenced");
	}

	static class Checkpointer {

		private final TestRunners.Events events;

		private final String name;

		Checkpointer(TestRunners.Events events, String name) {
			this.events = events;
			this.name = name;
		}

		@ShutdownHandler
		void checkpoint() {
			this.events.add("checkpoint " + this.name);
		}

	}

	static final class CheckpointerFactory implements FactoryBean<Checkpointer> {

		private final TestRunners.Events events;

		private final boolean shared;

		CheckpointerFactory(TestRunners.Events events, boolean shared) {
			this.events = events;
			this.shared = shared;
		}

		@Override
		public Checkpointer getObject() {
			return new Checkpointer(this.events, this.shared ? "shared" : "per call");
		}

		@Override
		public Class<?> getObjectType() {
			return Checkpointer.class;
		}

		@Override
		public boolean isSingleton() {
			return this.shared;
		}

	}

	static class CheckpointUser {

		final Checkpointer checkpointer;

		CheckpointUser(Checkpointer checkpointer) {
			this.checkpointer = checkpointer;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FactoryBeans {

		@Bean
		CheckpointUser checkpointUser(@Qualifier("sharedCheckpointer") Checkpointer checkpointer) {
			return new CheckpointUser(checkpointer);
		}

		@Bean
		CheckpointerFactory sharedCheckpointer(TestRunners.Events events) {
			return new CheckpointerFactory(events, true);
		}

		@Bean
		CheckpointerFactory perCallCheckpointer(TestRunners.Events events) {
			return new CheckpointerFactory(events, false);
		}

		@Bean
		FactoryBean<ExecutorService> reportPool() {
			return new FactoryBean<>() {

				@Override
				public ExecutorService getObject() {
					return Executors.newSingleThreadExecutor();
				}

				@Override
				public Class<?> getObjectType() {
					return ExecutorService.class;
				}

			};
		}

	}

	static class Stamp {

		private static int created;

		private final int number;

		private final TestRunners.Events events;

		Stamp(TestRunners.Events events) {
			this.events = events;
			this.number = ++created;
		}

		int number() {
			return this.number;
		}

		@ShutdownHandler
		void checkpoint() {
			this.events.add("checkpoint stamp " + this.number);
		}

	}

	static class Stamper {

		final Stamp stamp;

		Stamper(Stamp stamp) {
			this.stamp = stamp;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ScopedBeans {

		@Bean
		@Scope(scopeName = ConfigurableBeanFactory.SCOPE_PROTOTYPE, proxyMode = ScopedProxyMode.TARGET_CLASS)
		Stamp stamp(TestRunners.Events events) {
			return new Stamp(events);
		}

		@Bean
		Stamper stamper(Stamp stamp) {
			return new Stamper(stamp);
		}

	}

	@ManagedComponent
	static class PerRequest {

	}

	@Configuration(proxyBeanMethods = false)
	static class PrototypeComponentConfiguration {

		@Bean
		@Scope(ConfigurableBeanFactory.SCOPE_PROTOTYPE)
		PerRequest perRequest() {
			return new PerRequest();
		}

	}

	@Component
	static class Unreferenced {

		private final TestRunners.Events events;

		Unreferenced(TestRunners.Events events) {
			this.events = events;
		}

		@ShutdownHandler
		void checkpoint() {
			this.events.add("checkpoint unreferenced");
		}

	}

	@ManagedComponent("unreferenced")
	static class UnreferencedComponent {

	}

}
