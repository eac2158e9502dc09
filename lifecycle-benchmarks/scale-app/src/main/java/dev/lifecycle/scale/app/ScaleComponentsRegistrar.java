package dev.lifecycle.scale.app;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import dev.lifecycle.scale.components.PlainAsyncComponent;
import dev.lifecycle.scale.components.PlainSyncComponent;
import dev.lifecycle.scale.components.ScaleComponent;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;

/**
 * Registers the benchmark's components as bean definitions, with stop times drawn from a
 * fixed seed: component {@code i} is in phase {@code i % phases} and stops in
 * {@code min + random.nextInt(max - min + 1)} ms. Prints one {@code scale:} line with the
 * ideal (sum over phases of the slowest stop in the phase) for the harness.
 */
final class ScaleComponentsRegistrar implements BeanDefinitionRegistryPostProcessor {

	private final Environment environment;

	ScaleComponentsRegistrar(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
		String mode = this.environment.getProperty("scale.mode", "none");
		int count = this.environment.getProperty("scale.components", Integer.class, 1000);
		int phases = this.environment.getProperty("scale.phases", Integer.class, 10);
		long seed = this.environment.getProperty("scale.seed", Long.class, 42L);
		int min = this.environment.getProperty("scale.min-stop-ms", Integer.class, 20);
		int max = this.environment.getProperty("scale.max-stop-ms", Integer.class, 50);
		Class<?> type = switch (mode) {
			case "lifecycle" -> ScaleComponent.class;
			case "plain-sync" -> PlainSyncComponent.class;
			case "plain-async" -> PlainAsyncComponent.class;
			case "none" -> null;
			default -> throw new IllegalArgumentException(
					"scale.mode must be lifecycle, plain-sync, plain-async or " + "none, not '" + mode + "'");
		};
		if (type == null) {
			count = 0;
		}
		Random random = new Random(seed);
		long[] phaseMax = new long[phases];
		long total = 0;
		Map<String, Object> phaseProperties = new HashMap<>();
		for (int i = 0; i < count; i++) {
			int phase = i % phases;
			long stopMillis = min + random.nextInt(max - min + 1);
			phaseMax[phase] = Math.max(phaseMax[phase], stopMillis);
			total += stopMillis;
			String name = String.format("c%04d", i);
			registry.registerBeanDefinition(name,
					BeanDefinitionBuilder.genericBeanDefinition(type)
						.addConstructorArgValue(phase)
						.addConstructorArgValue(stopMillis)
						.getBeanDefinition());
			if (type == ScaleComponent.class) {
				phaseProperties.put("lifecycle.components." + name + ".phase", Integer.toString(phase));
			}
		}
		if (!phaseProperties.isEmpty()) {
			((ConfigurableEnvironment) this.environment).getPropertySources()
				.addLast(new MapPropertySource("scaleComponentPhases", phaseProperties));
		}
		long ideal = 0;
		StringBuilder maxes = new StringBuilder();
		for (int p = phases - 1; p >= 0; p--) {
			ideal += phaseMax[p];
			maxes.append(maxes.length() > 0 ? "," : "").append(phaseMax[p]);
		}
		System.out.printf(
				"scale: mode=%s components=%d phases=%d seed=%d stop=%d..%dms phaseMaxSumMs=%d "
						+ "totalStopMs=%d phaseMaxes=%s (highest phase first)%n",
				mode, count, phases, seed, min, max, ideal, total, maxes);
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
	}

}
