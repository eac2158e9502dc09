package dev.lifecycle.scale.app;

import java.util.List;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Benchmark app for "Shutdown time at scale" (run-all.sh item 2):
 * {@code scale.components} components in {@code scale.phases} phases, each taking a
 * random {@code scale.min-stop-ms}..{@code scale.max-stop-ms} to stop (fixed
 * {@code scale.seed}). {@code scale.mode} picks how they are written:
 * <ul>
 * <li>{@code lifecycle}: Lifecycle {@code @ManagedComponent} passive components (phase
 * per component through {@code lifecycle.components.<name>.phase});</li>
 * <li>{@code plain-sync}: plain Spring {@code SmartLifecycle} beans whose {@code stop()}
 * does the work (Spring stops the beans of one phase one after another);</li>
 * <li>{@code plain-async}: plain {@code SmartLifecycle} beans whose
 * {@code stop(Runnable)} does the work on a thread of its own (Spring waits for the
 * phase, in parallel);</li>
 * <li>{@code none}: no components (the JVM + Spring exit baseline).</li>
 * </ul>
 * Run the plain modes and the baseline with {@code --lifecycle.enabled=false}. With
 * {@code --harness=prestop} or {@code --harness=probe} it runs a pre-stop latency harness
 * instead ({@link PrestopHarness}, {@link PrestopProbe}).
 */
@SpringBootApplication
public class ScaleApplication {

	public static void main(String[] args) throws Exception {
		List<String> arguments = List.of(args);
		if (arguments.contains("--harness=prestop")) {
			PrestopHarness.run(args);
			return;
		}
		if (arguments.contains("--harness=probe")) {
			PrestopProbe.run(args);
			return;
		}
		SpringApplication.run(ScaleApplication.class, args);
	}

	@Bean
	static ScaleComponentsRegistrar scaleComponentsRegistrar(Environment environment) {
		return new ScaleComponentsRegistrar(environment);
	}

}
