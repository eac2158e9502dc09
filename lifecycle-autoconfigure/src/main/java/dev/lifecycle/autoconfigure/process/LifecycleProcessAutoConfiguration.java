package dev.lifecycle.autoconfigure.process;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.LifecycleManagerAutoConfiguration;
import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.LifecycleSwitch;
import dev.lifecycle.autoconfigure.RunKind;
import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.spring.LifecycleExit;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the process around the engine: the signal trap, the one place
 * that decides the exit code and who ends the JVM, and the watchdog that halts it past
 * the ceiling. Only in the context that runs the engine: a child context whose parent
 * runs it joins that engine, and the parent's trap, exit and watchdog serve it.
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

	@Bean
	ShutdownExit lifecycleShutdownExit(ConfigurableApplicationContext context, LifecycleExit exit,
			LifecycleManager manager, LifecycleManagerProperties properties, BeanDestructionTracker destructions,
			ObjectProvider<CeilingHaltHook> haltHooks) {
		IntConsumer halt = (code) -> Runtime.getRuntime().halt(code);
		AtomicReference<ShutdownExit> self = new AtomicReference<>();
		// The report says the halt first: the other hooks (a push over the network) may
		// use up the time.
		CeilingHaltHook recordHalt = () -> LifecycleHost.of(manager)
			.recordHalt("Lifecycle: the process was still running " + CeilingWatchdog.GRACE.toMillis()
					+ " ms after the global shutdown timeout of " + manager.globalShutdownTimeout()
					+ ", held by what ran after the sequence; halted with exit code " + ExitCodes.CEILING
					+ " (the log names the threads that held it)");
		CeilingWatchdog watchdog = properties.isHaltAfterCeiling()
				? new CeilingWatchdog(manager.globalShutdownTimeout(), destructions, halt, () -> self.get().isEnding(),
						() -> Stream.concat(Stream.of(recordHalt), haltHooks.orderedStream()).toList())
				: null;
		ShutdownExit shutdownExit = new ShutdownExit(context, exit, properties.isCloseContext(),
				manager.globalShutdownTimeout().plus(ShutdownExit.CEILING_SLACK), manager, watchdog);
		self.set(shutdownExit);
		if (properties.isHaltAfterCeiling()) {
			SpringApplication.getShutdownHandlers().add(() -> shutdownExit.haltIfTheCeilingFired(halt));
		}
		return shutdownExit;
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnBooleanProperty(name = "lifecycle.signals.trap", matchIfMissing = true)
	SignalTrap lifecycleSignalTrap(LifecycleManager manager, ShutdownExit exit, LifecycleManagerProperties properties,
			Environment environment) {
		SignalTrap trap = new SignalTrap(manager, exit);
		// From here on, not only once the engine has started: a signal during start-up
		// must not end the JVM with 143 and half-started beans. Asked again at run time:
		// under AOT the condition above was frozen at build time.
		if (properties.getSignals().isTrap() && !LifecycleSwitch.isOff(environment)
				&& RunKind.current().trapsSignals()) {
			trap.install();
		}
		return trap;
	}

}
