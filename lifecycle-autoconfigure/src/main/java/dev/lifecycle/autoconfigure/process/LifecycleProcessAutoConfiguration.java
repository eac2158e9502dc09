package dev.lifecycle.autoconfigure.process;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.LifecycleManagerAutoConfiguration;
import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.LifecycleSwitch;
import dev.lifecycle.autoconfigure.RunKind;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.spring.LifecycleExit;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the process around the engine: the {@link ShutdownExit}, the one
 * owner of the application's end (its signals, its exit code and who ends the JVM, the
 * halt past the ceiling). Only in the context that runs the engine: a child context whose
 * parent runs it joins that engine, and the parent's owner serves it.
 */
@AutoConfiguration(after = LifecycleManagerAutoConfiguration.class)
@ConditionalOnLifecycleEnabled
@Conditional(RunsTheEngineCondition.class)
@ImportRuntimeHints(BeanDestructionTracker.Hints.class)
public final class LifecycleProcessAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LifecycleExit lifecycleExit(LifecycleManagerProperties properties) {
		return properties.getSignals().isTrap() ? LifecycleExit.system() : LifecycleExit.none();
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static BeanDestructionTracker lifecycleBeanDestructionTracker(ObjectProvider<InternalHooks> hooks) {
		return new BeanDestructionTracker(hooks.getIfAvailable(InternalHooks::new));
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static FailedStartRecorder lifecycleFailedStartRecorder(Environment environment) {
		// Asked at run time too: an application processed ahead of time keeps this bean
		// when switched off.
		return new FailedStartRecorder(!LifecycleSwitch.isOff(environment));
	}

	/**
	 * The one owner of the application's end: the signals in, the exit out, the halt past
	 * the ceiling.
	 */
	@Bean(destroyMethod = "close")
	ShutdownExit lifecycleShutdownExit(ConfigurableApplicationContext context, LifecycleExit exit,
			LifecycleManager manager, LifecycleManagerProperties properties, BeanDestructionTracker destructions,
			ObjectProvider<CeilingHaltHook> haltHooks, Environment environment) {
		boolean haltAfterCeiling = properties.isHaltAfterCeiling();
		ShutdownExit shutdownExit = new ShutdownExit(context, exit, properties.isCloseContext(), manager,
				ProcessExit::halt, destructions, haltAfterCeiling ? () -> haltHooks.orderedStream().toList() : null);
		if (haltAfterCeiling) {
			SpringApplication.getShutdownHandlers().add(shutdownExit::haltIfTheCeilingFired);
		}
		// From here on, not only once the engine has started. Asked at run time: under
		// AOT a condition would be frozen at build time.
		if (properties.getSignals().isTrap() && !LifecycleSwitch.isOff(environment)
				&& RunKind.current().trapsSignals()) {
			shutdownExit.listenToSignals();
		}
		return shutdownExit;
	}

}
