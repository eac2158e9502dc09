package dev.lifecycle.core.sequence;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownStep;
import dev.lifecycle.core.ShutdownTask;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.StepReport;
import dev.lifecycle.core.StepResult;
import dev.lifecycle.core.Tier;
import dev.lifecycle.core.UnfinishedWork;
import dev.lifecycle.core.component.Component;
import dev.lifecycle.core.component.EngineThreads;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one shutdown sequence of a manager: drain delay, shutdown handlers, standard drain
 * by phase (highest first, each phase concurrently), final actions in reverse order,
 * observability drain, closing steps (the web server), infrastructure drain by phase,
 * last steps (what observes the shutdown), report. The global ceiling, armed at
 * initiation, cuts it short and produces the report itself.
 *
 * <p>
 * This order is where "what is used stops after what uses it" lives: infrastructure
 * (executors, pools, clients) is drained only once nothing that uses it is left running,
 * whatever its phase.
 */
@Internal
public final class ShutdownSequence {

	private static final Logger logger = LoggerFactory.getLogger(ShutdownSequence.class);

	private static final Duration MAX_BUDGET = Duration.ofSeconds(Long.MAX_VALUE);

	private final Duration globalShutdownTimeout;

	private final DrainWait drain;

	private final EngineThreads threads;

	private final Consumer<ShutdownReport> finisher;

	private final ShutdownTrigger trigger;

	private final long initiatedAt;

	/** When the ceiling runs out, on the trigger's clock. */
	private final long deadline;

	private final List<Component> components;

	private final List<NamedHandler> handlers;

	private final List<NamedAction> finalActions;

	private final List<NamedHandler> closingSteps;

	private final List<NamedHandler> lastSteps;

	private final LongSupplier failedRequests;

	/**
	 * Components whose budget ran out, each with the stacks of the threads still running
	 * its work.
	 */
	private final List<String> overruns = new CopyOnWriteArrayList<>();

	private final List<String> failedSteps = new CopyOnWriteArrayList<>();

	private final List<StepReport> steps = new CopyOnWriteArrayList<>();

	private final Listeners listeners;

	private final AtomicBoolean finished = new AtomicBoolean();

	private volatile @Nullable Thread thread;

	private volatile @Nullable NamedHandler runningHandler;

	private volatile @Nullable Thread runningHandlerThread;

	private volatile String step = "initiated";

	/** The kind of the step now running; the first step's until one starts. */
	private volatile ShutdownStep stepKind = ShutdownStep.DRAIN_DELAY;

	private volatile @Nullable ScheduledFuture<?> ceiling;

	private final int incompleteExitCode;

	public ShutdownSequence(Steps steps, Duration globalShutdownTimeout, DrainWait drain, EngineThreads threads,
			Listeners listeners, ShutdownTrigger trigger, long initiatedAt, long deadline, LongSupplier failedRequests,
			int incompleteExitCode, Consumer<ShutdownReport> finisher) {
		this.incompleteExitCode = incompleteExitCode;
		this.listeners = listeners;
		this.globalShutdownTimeout = globalShutdownTimeout;
		this.drain = drain;
		this.threads = threads;
		this.finisher = finisher;
		this.trigger = trigger;
		this.initiatedAt = initiatedAt;
		this.deadline = deadline;
		this.components = steps.components();
		// Each component's report says when it was told to stop, from this instant.
		this.components.forEach((component) -> component.shutdownInitiatedAt(initiatedAt));
		this.handlers = steps.handlers();
		this.finalActions = steps.finalActions();
		this.closingSteps = steps.closingSteps();
		this.lastSteps = steps.lastSteps();
		this.failedRequests = failedRequests;
	}

	/**
	 * Arms the global ceiling for the trigger's deadline and starts the sequence on a
	 * thread of its own.
	 */
	public void start() {
		Thread runner = this.threads.newThread("lifecycle-shutdown", this::run);
		this.thread = runner;
		this.ceiling = this.threads.schedule(this::ceilingFired, this.deadline - System.nanoTime());
		runner.start();
	}

	void run() {
		try {
			// Heard here, on the sequence's own thread under the ceiling, never on the
			// thread that fired the trigger (the JVM's signal thread for a signal): a
			// slow listener then delays the drain, not the signal's handling, and cannot
			// outlast the ceiling.
			this.listeners.shutdownInitiated(this.trigger);
			guarded(this::drainDelay);
			guarded(() -> runTimed(ShutdownStep.SHUTDOWN_HANDLER, "lifecycle-handler-", this.handlers));
			drainStandard();
			guarded(this::runFinalActions);
			guarded(this::drainObservability);
			guarded(() -> runTimed(ShutdownStep.CLOSING_STEP, "lifecycle-closing-", this.closingSteps));
			drainByPhase(Tier.INFRASTRUCTURE, ShutdownStep.INFRASTRUCTURE_DRAIN);
			guarded(() -> runTimed(ShutdownStep.LAST_STEP, "lifecycle-last-", this.lastSteps));
			complete();
		}
		catch (InterruptedException ex) {
			// The ceiling fired and produced the report.
		}
	}

	/**
	 * Runs one step of the sequence so that its failure, whatever it is, never keeps a
	 * later step from running: the failure is logged, the step is recorded as failed (the
	 * report is then not clean, exit code {@link ExitCodes#FAILURE}) and the sequence
	 * goes on.
	 */
	private void guarded(Step step) throws InterruptedException {
		checkNotCut();
		try {
			step.run();
		}
		catch (InterruptedException ex) {
			throw ex;
		}
		catch (Throwable ex) {
			checkNotCut();
			String failed = this.step;
			logger.error("Lifecycle: shutdown step '{}' failed; continuing with the next step", failed, ex);
			this.failedSteps.add(failed);
			stepCompletedQuietly(this.stepKind, failed, StepResult.FAILED);
		}
	}

	/** Records a failed step without letting a failing listener stop the sequence. */
	private void stepCompletedQuietly(ShutdownStep kind, String name, StepResult result) {
		try {
			stepCompleted(kind, name, System.nanoTime(), result);
		}
		catch (Throwable ex) {
			logger.error("Lifecycle: could not record the end of step '{}'", name, ex);
		}
	}

	/**
	 * Stops the sequence once the ceiling has produced the report. The ceiling settles
	 * waiting components as timeouts, which can wake this thread normally before its
	 * interrupt arrives, so the interrupt alone does not guarantee that no later step
	 * runs.
	 */
	private void checkNotCut() throws InterruptedException {
		if (this.finished.get()) {
			throw new InterruptedException("global shutdown timeout expired");
		}
	}

	// ---- steps
	// ---------------------------------------------------------------------------------

	private void drainDelay() throws InterruptedException {
		Duration delay = this.drain.delay();
		String name = ShutdownStep.DRAIN_DELAY.label();
		startStep(ShutdownStep.DRAIN_DELAY, name);
		if (delay.isZero()) {
			// Still a step: listeners that act at the end of the drain delay act now.
			stepCompleted(ShutdownStep.DRAIN_DELAY, name, this.initiatedAt, StepResult.OK);
			return;
		}
		logger.info("Lifecycle: draining traffic for {} before stopping components", delay);
		this.drain.await(this.initiatedAt);
		stepCompleted(ShutdownStep.DRAIN_DELAY, name, this.initiatedAt, StepResult.OK);
	}

	/**
	 * Names the step now running (the ceiling's diagnostics say it) and tells the
	 * listeners.
	 */
	private long startStep(ShutdownStep kind, String name) {
		this.stepKind = kind;
		this.step = name;
		this.listeners.stepStarted(name);
		return System.nanoTime();
	}

	/**
	 * Records a finished step and tells the listeners, so a report on disk grows as the
	 * sequence goes.
	 */
	private void stepCompleted(ShutdownStep kind, String name, long startedAt, StepResult result) {
		long now = System.nanoTime();
		StepReport step = new StepReport(kind, name, Duration.ofNanos(startedAt - this.initiatedAt),
				Duration.ofNanos(now - startedAt), result);
		this.steps.add(step);
		this.listeners.stepCompleted(step);
	}

	/**
	 * Runs each step on its own thread, bounded by its own timeout; a step that throws or
	 * overruns is logged, recorded as failed (the report is then not clean) and the
	 * sequence goes on.
	 */
	private void runTimed(ShutdownStep kind, String threadPrefix, List<NamedHandler> steps)
			throws InterruptedException {
		for (NamedHandler handler : steps) {
			checkNotCut();
			String label = kind.named(handler.name());
			logger.info("Lifecycle: running {} (timeout {})", label, handler.timeout());
			long start = startStep(kind, label);
			AtomicBoolean failed = new AtomicBoolean();
			Thread runner = this.threads.newThread(threadPrefix + handler.name(), () -> {
				try {
					handler.handler().shutdown();
				}
				catch (InterruptedException ex) {
					failed.set(true);
					logger.warn("Lifecycle: {} was interrupted", label);
				}
				catch (Exception | Error ex) {
					failed.set(true);
					logger.error("Lifecycle: {} failed; continuing", label, ex);
				}
			});
			this.runningHandler = new NamedHandler(label, handler.timeout(), handler.handler());
			this.runningHandlerThread = runner;
			runner.start();
			runner.join(Math.max(1, handler.timeout().toMillis()));
			this.runningHandler = null;
			this.runningHandlerThread = null;
			if (runner.isAlive()) {
				logger.error("Lifecycle: {} did not finish within {}; continuing without it", label, handler.timeout());
				this.failedSteps.add(label);
				runner.interrupt();
				stepCompleted(kind, label, start, StepResult.TIMEOUT);
			}
			else if (failed.get()) {
				this.failedSteps.add(label);
				stepCompleted(kind, label, start, StepResult.FAILED);
			}
			else {
				logger.info("Lifecycle: {} finished in {} ms", label,
						TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
				stepCompleted(kind, label, start, StepResult.OK);
			}
		}
	}

	private void drainStandard() throws InterruptedException {
		drainByPhase(Tier.STANDARD, ShutdownStep.STANDARD_DRAIN);
	}

	/**
	 * Drains one tier's components phase by phase, highest first, each phase
	 * concurrently.
	 */
	private void drainByPhase(Tier tier, ShutdownStep kind) throws InterruptedException {
		Map<Integer, List<Component>> phases = new TreeMap<>((a, b) -> Integer.compare(b, a));
		for (Component component : this.components) {
			if (component.tier() == tier) {
				phases.computeIfAbsent(component.phase(), (p) -> new ArrayList<>()).add(component);
			}
		}
		for (Map.Entry<Integer, List<Component>> phase : phases.entrySet()) {
			guarded(() -> {
				logger.info("Lifecycle: stopping {}phase {} ({} component(s))",
						(tier == Tier.STANDARD) ? "" : "infrastructure ", phase.getKey(), phase.getValue().size());
				String name = kind.phase(phase.getKey());
				long start = startStep(kind, name);
				drain(phase.getValue());
				stepCompleted(kind, name, start, StepResult.OK);
			});
		}
	}

	private void runFinalActions() {
		for (int i = this.finalActions.size() - 1; i >= 0; i--) {
			if (this.finished.get()) {
				return;
			}
			NamedAction action = this.finalActions.get(i);
			String name = ShutdownStep.FINAL_ACTION.named(action.name());
			long start = startStep(ShutdownStep.FINAL_ACTION, name);
			try {
				action.action().run();
				logger.info("Lifecycle: final action '{}' done", action.name());
				stepCompleted(ShutdownStep.FINAL_ACTION, name, start, StepResult.OK);
			}
			catch (Throwable ex) {
				logger.error("Lifecycle: final action '{}' failed; continuing", action.name(), ex);
				this.failedSteps.add(name);
				stepCompleted(ShutdownStep.FINAL_ACTION, name, start, StepResult.FAILED);
			}
		}
	}

	private void drainObservability() throws InterruptedException {
		String name = ShutdownStep.OBSERVABILITY_DRAIN.label();
		long start = startStep(ShutdownStep.OBSERVABILITY_DRAIN, name);
		List<Component> observability = new ArrayList<>();
		for (Component component : this.components) {
			if (component.tier() == Tier.OBSERVABILITY) {
				observability.add(component);
			}
			else if (component.tier() == Tier.ADVISORY) {
				// Told to stop, never waited for.
				component.requestStop();
			}
		}
		drain(observability);
		stepCompleted(ShutdownStep.OBSERVABILITY_DRAIN, name, start, StepResult.OK);
	}

	/** Tells every component at once, then waits for each within its own budget. */
	private void drain(List<Component> group) throws InterruptedException {
		long start = System.nanoTime();
		for (Component component : group) {
			if (!component.state().isTerminal()) {
				this.listeners.componentStopping(component);
			}
			component.requestStop();
		}
		// Wait in deadline order so each component is judged at its own deadline, not
		// after a sibling with a longer budget: a finish after its own budget must stay a
		// timeout.
		List<Component> byDeadline = new ArrayList<>(group);
		byDeadline.sort(Comparator.comparing((Component c) -> c.options().effectiveBudget().orElse(MAX_BUDGET)));
		Throwable failure = null;
		for (Component component : byDeadline) {
			Optional<Duration> budget = component.options().effectiveBudget();
			try {
				if (budget.isPresent()) {
					long remaining = Math.subtractExact(Math.addExact(start, budget.get().toNanos()),
							System.nanoTime());
					component.settled().get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
				}
				else {
					component.settled().get();
				}
			}
			catch (TimeoutException ex) {
				// Stacks first: a timed-out component's threads may finish the moment it
				// is settled.
				String overrun = ShutdownDiagnostics.overrun(component, budget.get());
				if (component.timeOut()) {
					this.overruns.add(overrun);
					logger.warn(overrun);
				}
			}
			catch (InterruptedException ex) {
				throw ex;
			}
			catch (Throwable ex) {
				// The siblings are still waited for; the step then fails as a whole.
				Throwable cause = (ex instanceof ExecutionException) ? ex.getCause() : ex;
				logger.error("Lifecycle: waiting for component '{}' failed", component.name(), cause);
				if (failure == null) {
					failure = cause;
				}
				else {
					failure.addSuppressed(cause);
				}
			}
		}
		if (failure != null) {
			throw new IllegalStateException("waiting for the components failed", failure);
		}
	}

	// ---- endings
	// -------------------------------------------------------------------------------

	private void complete() {
		if (!this.finished.compareAndSet(false, true)) {
			return;
		}
		ScheduledFuture<?> armed = this.ceiling;
		if (armed != null) {
			armed.cancel(false);
		}
		ShutdownReport report = report(null, String.join("\n", this.overruns));
		logger.info("Lifecycle: shutdown complete (clean={}, exitCode={}, elapsed={} ms, failedRequests={})",
				report.clean(), report.exitCode(), report.elapsed().toMillis(), report.failedRequests());
		if (!report.unfinishedWork().isEmpty()) {
			logger.warn("Lifecycle: work left unfinished for a later run: {}",
					report.unfinishedWork().stream().map(UnfinishedWork::toString).collect(Collectors.joining("; ")));
		}
		this.finisher.accept(report);
	}

	private void ceilingFired() {
		if (!this.finished.compareAndSet(false, true)) {
			return;
		}
		String diagnostics = diagnostics();
		logger.error(diagnostics);
		if (!this.overruns.isEmpty()) {
			diagnostics = String.join("\n", this.overruns) + "\n" + diagnostics;
		}
		Set<String> cutByCeiling = CeilingCuts.settle(this.components);
		Thread sequenceThread = this.thread;
		if (sequenceThread != null) {
			sequenceThread.interrupt();
		}
		ShutdownReport report = report(cutByCeiling, diagnostics);
		logger.error("Lifecycle: shutdown incomplete (clean=false, exitCode={}, elapsed={} ms, failedRequests={})",
				report.exitCode(), report.elapsed().toMillis(), report.failedRequests());
		this.finisher.accept(report);
	}

	/**
	 * Names every component still running and the stack of the thread it is blocked in.
	 */
	private String diagnostics() {
		return ShutdownDiagnostics.ceiling(this.globalShutdownTimeout, this.step, this.runningHandler,
				this.runningHandlerThread, this.components);
	}

	/**
	 * @param cutByCeiling the components the ceiling settled, {@code null} when it did
	 * not fire
	 */
	private ShutdownReport report(@Nullable Set<String> cutByCeiling, String diagnostics) {
		return ShutdownVerdict.report(this.trigger, this.components, cutByCeiling, List.copyOf(this.failedSteps),
				List.copyOf(this.steps), diagnostics, System.nanoTime() - this.initiatedAt,
				this.failedRequests.getAsLong(), this.incompleteExitCode);
	}

	public record NamedHandler(String name, Duration timeout, ShutdownTask handler) {
	}

	/** One step of the sequence, as {@link #guarded(Step)} runs it. */
	@FunctionalInterface
	private interface Step {

		void run() throws Exception;

	}

	/** Everything registered, frozen when the sequence starts. */
	public record Steps(List<Component> components, List<NamedHandler> handlers, List<NamedAction> finalActions,
			List<NamedHandler> closingSteps, List<NamedHandler> lastSteps) {
	}

	public record NamedAction(String name, Runnable action) {
	}

}
