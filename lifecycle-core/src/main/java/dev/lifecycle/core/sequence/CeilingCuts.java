package dev.lifecycle.core.sequence;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.Cut;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.Tier;
import dev.lifecycle.core.component.BusyThread;
import dev.lifecycle.core.component.Component;

/**
 * What the global ceiling cuts of a component still at work when it fires: one entry of
 * the component's {@link ComponentReport#cut()} per thread at work for it, saying what
 * that thread does for it (a request thread inside one of its critical sections, its stop
 * callback, its loop, a task of its executor). The process exits with that work
 * unfinished, so the report names it beside the calls a grace period or a budget
 * cancelled. A component with no thread known at work gets no entry: the diagnostics say
 * why, and its outcome is a timeout.
 */
@Internal
public final class CeilingCuts {

	private CeilingCuts() {
	}

	/**
	 * Names in each component's report what the ceiling cuts of it, then settles it as a
	 * timeout: named first, so that its listeners, and then the report, see the entries.
	 * Advisory components are never waited for, so the ceiling cuts nothing of theirs.
	 * @return the names of the components the ceiling settled
	 */
	static Set<String> settle(List<Component> components) {
		Set<String> settled = new LinkedHashSet<>();
		for (Component component : components) {
			if (component.tier() == Tier.ADVISORY) {
				continue;
			}
			if (component.outcome() == null) {
				of(component).forEach(component::recordCut);
			}
			if (component.timeOut()) {
				settled.add(component.name());
			}
		}
		return settled;
	}

	/** The entries for a component the ceiling finds still at work. */
	static List<Cut> of(Component component) {
		List<Cut> cuts = new ArrayList<>();
		for (BusyThread busy : component.busyThreads()) {
			cuts.add(new Cut("thread \"" + busy.thread().getName() + "\" " + busy.role(), true));
		}
		return cuts;
	}

}
