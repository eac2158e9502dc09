package dev.lifecycle.core.component;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.Internal;
import org.jspecify.annotations.Nullable;

/**
 * What is in flight for one component right now: the thread running the component's own
 * code for the engine, and its open critical sections with the threads that opened them.
 * The component's end waits for the sections; the diagnostics of a budget or ceiling
 * overrun name the threads. Every method is safe to call from any thread.
 */
@Internal
public final class InFlightWork {

	private final AtomicInteger openCritical = new AtomicInteger();

	/** The critical sections open now, each with the thread that opened it. */
	private final Set<OpenSection> openSections = ConcurrentHashMap.newKeySet();

	/**
	 * Told when a critical section closes, so an ended component can complete once the
	 * last one has.
	 */
	private final Runnable sectionClosed;

	/**
	 * The thread running the component's own code for the engine (its loop, its stop
	 * callback or its process scope) while it does; cleared when that code returns, so
	 * that a pooled engine thread gone idle is never named as the one at work.
	 */
	private volatile @Nullable BusyThread thread;

	InFlightWork(Runnable sectionClosed) {
		this.sectionClosed = sectionClosed;
	}

	/** The current thread starts running the component's own code, in the given role. */
	BusyThread busy(String role) {
		BusyThread busy = new BusyThread(Thread.currentThread(), role);
		this.thread = busy;
		return busy;
	}

	/** The code started by {@link #busy(String)} returned; null for nothing. */
	void idle(@Nullable BusyThread busy) {
		if (busy != null && this.thread == busy) {
			this.thread = null;
		}
	}

	/** Whether a thread runs the component's own code for the engine now. */
	boolean hasBusyThread() {
		return this.thread != null;
	}

	/** Opens a critical section on the current thread; its first close ends it. */
	ComponentHandle.CriticalSection openCritical() {
		OpenSection section = new OpenSection(Thread.currentThread(), System.nanoTime());
		this.openSections.add(section);
		this.openCritical.incrementAndGet();
		return section;
	}

	/** Critical sections open right now. */
	int openCriticalSections() {
		return this.openCritical.get();
	}

	/**
	 * The threads at work for the component right now, each with what it does for it: the
	 * thread running its own code for the engine, the threads its work names (a passive
	 * component's, an executor's tasks), and each thread that opened a critical section
	 * still open (a request thread inside {@code critical()}).
	 */
	List<BusyThread> busyThreads(ComponentWork work, boolean stopRequested) {
		Map<Thread, String> roles = new LinkedHashMap<>();
		BusyThread own = this.thread;
		if (own != null) {
			roles.put(own.thread(), own.role());
		}
		for (Thread thread : work.threads(stopRequested)) {
			roles.putIfAbsent(thread, work.threadRole());
		}
		Map<Thread, long[]> sections = new LinkedHashMap<>();
		for (OpenSection section : this.openSections) {
			long[] countAndOldest = sections.computeIfAbsent(section.opener,
					(thread) -> new long[] { 0, Long.MAX_VALUE });
			countAndOldest[0]++;
			countAndOldest[1] = Math.min(countAndOldest[1], section.openedAt);
		}
		long now = System.nanoTime();
		sections.forEach((thread, countAndOldest) -> {
			long openMillis = TimeUnit.NANOSECONDS.toMillis(now - countAndOldest[1]);
			String role = (countAndOldest[0] == 1) ? "opened a critical section still open after " + openMillis + " ms"
					: "opened " + countAndOldest[0] + " critical sections still open, the oldest after " + openMillis
							+ " ms";
			roles.merge(thread, role, (first, second) -> first + "; " + second);
		});
		List<BusyThread> busy = new ArrayList<>(roles.size());
		roles.forEach((thread, role) -> busy.add(new BusyThread(thread, role)));
		return busy;
	}

	/**
	 * An open critical section and the thread that opened it; the set's removal closes it
	 * once.
	 */
	private final class OpenSection implements ComponentHandle.CriticalSection {

		private final Thread opener;

		private final long openedAt;

		OpenSection(Thread opener, long openedAt) {
			this.opener = opener;
			this.openedAt = openedAt;
		}

		@Override
		public void close() {
			if (InFlightWork.this.openSections.remove(this)) {
				InFlightWork.this.openCritical.decrementAndGet();
				InFlightWork.this.sectionClosed.run();
			}
		}

	}

}
