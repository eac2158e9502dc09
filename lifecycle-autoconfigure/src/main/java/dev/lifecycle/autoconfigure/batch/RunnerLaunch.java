package dev.lifecycle.autoconfigure.batch;

import java.util.List;

import dev.lifecycle.autoconfigure.process.StartProgress;

import org.springframework.batch.core.job.Job;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * The jobs Spring Boot's runner ({@code JobLauncherApplicationRunner}) was still to
 * launch when the shutdown began: none once a job has begun in this process or once the
 * application is ready (its runners have returned); else the job it names
 * ({@code spring.batch.job.name}) or, without a name, every job bean. A job it never
 * launched because a signal cut the start is work that was asked for and not done.
 */
final class RunnerLaunch {

	private static final String RUNNER = "org.springframework.boot.batch.autoconfigure.JobLauncherApplicationRunner";

	private final ApplicationContext context;

	private final RunningJobs running;

	RunnerLaunch(ApplicationContext context, RunningJobs running) {
		this.context = context;
		this.running = running;
	}

	/** The names of the jobs the runner has yet to launch; empty if none. */
	List<String> pending() {
		if (this.running.began()) {
			return List.of();
		}
		StartProgress.Stage stage = StartProgress.of(this.context);
		if (stage == null || stage == StartProgress.Stage.READY) {
			return List.of();
		}
		ClassLoader loader = this.context.getClassLoader();
		if (!ClassUtils.isPresent(RUNNER, loader) || this.context
			.getBeanNamesForType(ClassUtils.resolveClassName(RUNNER, loader), false, false).length == 0) {
			return List.of();
		}
		Environment environment = this.context.getEnvironment();
		if (!environment.getProperty("spring.batch.job.enabled", Boolean.class, true)) {
			return List.of();
		}
		String name = environment.getProperty("spring.batch.job.name");
		if (StringUtils.hasText(name)) {
			return List.of(name.trim());
		}
		return this.context.getBeansOfType(Job.class, false, false).values().stream().map(Job::getName).toList();
	}

}
