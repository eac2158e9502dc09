package dev.lifecycle.scenarios;

import java.util.ArrayList;
import java.util.List;

/**
 * One scenario of the suite: one stack on one thread model, one child JVM signalled once.
 * The matrix, {@link #all()}, is the one place that says what the suite covers; the
 * support table is generated from it.
 */
record Scenario(Stack stack, ThreadModel threads) {

	/** Every stack on every thread model. */
	static List<Scenario> all() {
		List<Scenario> all = new ArrayList<>();
		for (ThreadModel threads : ThreadModel.values()) {
			for (Stack stack : Stack.values()) {
				all.add(new Scenario(stack, threads));
			}
		}
		return all;
	}

	static List<Scenario> on(ThreadModel threads) {
		return all().stream().filter((scenario) -> scenario.threads() == threads).toList();
	}

	@Override
	public String toString() {
		return this.stack.name().toLowerCase(java.util.Locale.ROOT) + ", " + this.threads.title();
	}

	/** The thread model of the application's request handling and executors. */
	enum ThreadModel {

		PLATFORM("platform threads", "platform", false),

		VIRTUAL("virtual threads", "virtual", true);

		private final String title;

		private final String label;

		private final boolean virtual;

		ThreadModel(String title, String label, boolean virtual) {
			this.title = title;
			this.label = label;
			this.virtual = virtual;
		}

		String title() {
			return this.title;
		}

		/** How the support table names it. */
		String label() {
			return this.label;
		}

		boolean virtual() {
			return this.virtual;
		}

	}

}
