package dev.lifecycle.autoconfigure.process;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.SpringApplication;

/**
 * Two {@link ProcessTestApplication}s in one JVM, started one after the other by two
 * {@code SpringApplication.run} calls. The second takes the arguments as given; the first
 * is the service {@code first}, with its own run marker, pre-stop file and port file
 * (each the given one with the suffix {@code -first}, the port file {@code .first}), and
 * takes the arguments that start with {@code --first.} without that prefix.
 */
public final class TwoApplications {

	private static final List<String> OWN = List.of("spring.application.name", "lifecycle.run-marker.path",
			"lifecycle.pre-stop.path", "process-test.port-file");

	private TwoApplications() {
	}

	public static void main(String[] args) {
		List<String> first = new ArrayList<>();
		List<String> second = new ArrayList<>();
		for (String argument : args) {
			if (argument.startsWith("--first.")) {
				first.add("--" + argument.substring("--first.".length()));
				continue;
			}
			second.add(argument);
			String key = argument.substring(2, Math.max(2, argument.indexOf('=')));
			if (!OWN.contains(key)) {
				first.add(argument);
			}
			else if (key.equals("process-test.port-file")) {
				first.add(argument + ".first");
			}
			else if (!key.equals("spring.application.name")) {
				first.add(argument + "-first");
			}
		}
		first.add("--spring.application.name=first");
		SpringApplication.run(ProcessTestApplication.class, first.toArray(String[]::new));
		SpringApplication.run(ProcessTestApplication.class, second.toArray(String[]::new));
	}

}
