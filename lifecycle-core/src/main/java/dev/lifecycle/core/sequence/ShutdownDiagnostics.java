package dev.lifecycle.core.sequence;

import java.time.Duration;
import java.util.List;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.Tier;
import dev.lifecycle.core.component.BusyThread;
import dev.lifecycle.core.component.Component;
import org.jspecify.annotations.Nullable;

/**
 * The text that says why a shutdown overran: each component whose budget ran out, and
 * when the ceiling fires, everything still running, each with the stacks of the threads
 * at work for it and what each does for it: the thread running its loop or stop callback,
 * the threads its work names, and every thread that opened one of its critical sections
 * still open (a request thread inside {@code critical()}). A component without such a
 * thread says why, in terms true for its kind. Stacks are taken before anything is
 * settled, because a timed-out component's threads may finish the moment it is.
 */
@Internal
public final class ShutdownDiagnostics {

	private ShutdownDiagnostics() {
	}

	/**
	 * Names a component whose budget ran out and the stack of each thread still running
	 * its work.
	 */
	static String overrun(Component component, Duration budget) {
		StringBuilder message = new StringBuilder();
		message.append("Lifecycle: component '")
			.append(component.name())
			.append("' did not stop within its graceful budget of ")
			.append(budget)
			.append(" (open critical sections: ")
			.append(component.openCriticalSections())
			.append(")");
		List<BusyThread> threads = component.busyThreads();
		if (threads.isEmpty()) {
			message.append("; ").append(component.withoutThreads());
		}
		else {
			message.append("; still running:");
		}
		for (BusyThread thread : threads) {
			appendThread(message, thread);
		}
		return message.toString();
	}

	/**
	 * Names the step the ceiling cut, the step work and every component still running,
	 * with stacks.
	 */
	static String ceiling(Duration globalShutdownTimeout, String step, ShutdownSequence.@Nullable NamedHandler handler,
			@Nullable Thread handlerThread, List<Component> components) {
		StringBuilder message = new StringBuilder();
		message.append("Lifecycle: global shutdown timeout of ")
			.append(globalShutdownTimeout)
			.append(" expired during ")
			.append(step)
			.append("; still running:");
		if (handler != null && handlerThread != null) {
			message.append("\n  ").append(handler.name());
			appendThread(message, new BusyThread(handlerThread, "runs it"));
		}
		for (Component component : components) {
			if (component.tier() == Tier.ADVISORY || component.outcome() != null) {
				continue;
			}
			message.append("\n  component '")
				.append(component.name())
				.append("' (tier ")
				.append(component.tier())
				.append(", phase ")
				.append(component.phase())
				.append(component.isStopRequested() ? ", told to stop" : ", not yet told to stop")
				.append(", open critical sections ")
				.append(component.openCriticalSections())
				.append(")");
			List<BusyThread> threads = component.busyThreads();
			if (threads.isEmpty()) {
				message.append("\n    no thread at work: ").append(component.withoutThreads());
			}
			for (BusyThread thread : threads) {
				appendThread(message, thread);
			}
		}
		return message.toString();
	}

	private static void appendThread(StringBuilder message, BusyThread busy) {
		Thread thread = busy.thread();
		message.append("\n    thread \"")
			.append(thread.getName())
			.append("\" ")
			.append(thread.getState())
			.append(", ")
			.append(busy.role());
		for (StackTraceElement element : thread.getStackTrace()) {
			message.append("\n      at ").append(element);
		}
	}

}
