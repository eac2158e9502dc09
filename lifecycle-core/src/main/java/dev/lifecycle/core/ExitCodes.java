package dev.lifecycle.core;

import java.util.List;

/**
 * The process exit codes, declared once: each code Lifecycle exits with, and the codes of
 * the JVM and of Kubernetes a pod of a Lifecycle service can also end with, so that the
 * code alone says what happened. {@link #declared()} is the one place their meanings are
 * written; the manual's table of exit codes is generated from it, and no other page lists
 * them.
 */
public final class ExitCodes {

	/** Clean: the shutdown finished and nothing was lost. */
	public static final int CLEAN = 0;

	/** Failure: something failed, and its work may be missing. */
	public static final int FAILURE = 1;

	/**
	 * Incomplete, by default: work was cut short and left for a later run. A service
	 * chooses its own code with {@link LifecycleManager.Builder#incompleteExitCode(int)}.
	 * It is sysexits' {@code EX_TEMPFAIL}, a code neither the JVM nor Kubernetes gives.
	 */
	public static final int INCOMPLETE = 75;

	/** Forced: a second signal ended the process before its report existed. */
	public static final int FORCED = 128;

	/** Ceiling: the global shutdown ceiling fired. */
	public static final int CEILING = 129;

	/**
	 * The JVM's code on an {@code OutOfMemoryError} with
	 * {@code -XX:+ExitOnOutOfMemoryError}.
	 */
	static final int OUT_OF_MEMORY = 3;

	/** SIGKILL: 128 + 9. */
	static final int KILLED = 137;

	/** SIGTERM the JVM handled itself: 128 + 15. */
	static final int TERMINATED = 143;

	private static final List<Code> DECLARED = List.of(new Code(CLEAN, "clean", true,
			"the shutdown finished and nothing was lost",
			"the trigger's [reason](#the-shutdown-sequence) is clean on its own, no component failed or died, "
					+ "no step failed and no work was left unfinished. Every [clean](design.md#clean-and-failed-steps) "
					+ "report exits 0; so may one that is not clean, such as one whose stop cancelled calls or "
					+ "requests (a component's `cut`): their clients saw the failure and retry them, nothing is "
					+ "left for the service's next run"),
			new Code(INCOMPLETE, "incomplete", true,
					"nothing failed, but work was cut short and left for a later run: retrying the run resumes it "
							+ "(the default of `lifecycle.exit-code.incomplete`, which a service may set to 0)",
					"a standard or infrastructure component overran its budget (`timeout`), or a component said it "
							+ "leaves work unfinished (`ComponentHandle.unfinishedWork`), such as a batch job stopped "
							+ "between chunks; the report lists each in `unfinishedWork`"),
			new Code(FAILURE, "failure", true, "something failed, and its work may be missing",
					"a component failed, died or stalled, or threw while stopping; a shutdown handler, final "
							+ "action or closing step threw or timed out, or another step failed; or the start "
							+ "failed (`start-failed`)"),
			new Code(FORCED, "forced", true, "the process was ended before its shutdown finished",
					"a second [signal](#signals) arrived before the report existed; the report says `forced`"),
			new Code(CEILING, "ceiling", true, "the shutdown outlived its ceiling",
					"the global shutdown ceiling (`lifecycle.global-shutdown-timeout`) fired with components "
							+ "still running, or the process was still alive shortly after it; the log names what "
							+ "still ran, with its stack"),
			new Code(OUT_OF_MEMORY, "out of memory (the JVM's)", false, "the heap ran out; nothing was drained",
					"the JVM ran out of memory with `-XX:+ExitOnOutOfMemoryError`, as the shipped manifests set"),
			new Code(KILLED, "killed (SIGKILL)", false, "the process was killed; nothing was drained or reported",
					"the kubelet's SIGKILL after `terminationGracePeriodSeconds`, or the kernel's OOM kill; the "
							+ "next start finds the run marker and recovers what it can"),
			new Code(TERMINATED, "terminated (SIGTERM, untrapped)", false,
					"the JVM handled SIGTERM itself: Lifecycle did not decide the code",
					"Lifecycle's signal trap is off (`lifecycle.signals.trap=false`) or Lifecycle is not "
							+ "enabled, and the JVM's own shutdown ran"));

	private ExitCodes() {
	}

	/**
	 * Every exit code with its meaning: Lifecycle's own from the least to the most severe
	 * (when two apply, the later one wins), then the JVM's and Kubernetes'.
	 * @return the declared codes, in that order
	 */
	public static List<Code> declared() {
		return DECLARED;
	}

	/**
	 * How severe a code Lifecycle exits with is, to pick the worst of several; a code it
	 * does not declare as its own ranks as incomplete work, the only code a service
	 * chooses.
	 * @param code an exit code
	 * @return its rank: higher is more severe
	 */
	public static int severity(int code) {
		for (int rank = 0; rank < DECLARED.size(); rank++) {
			Code declared = DECLARED.get(rank);
			if (declared.lifecycles() && declared.code() == code) {
				return rank;
			}
		}
		return severity(INCOMPLETE);
	}

	/**
	 * One exit code and what it says.
	 *
	 * @param code the process exit code
	 * @param name its short name, as the manual and the logs call it
	 * @param lifecycles whether Lifecycle exits with it; else the JVM or Kubernetes does
	 * @param meaning what the code says happened
	 * @param when what makes a process end with it
	 */
	public record Code(int code, String name, boolean lifecycles, String meaning, String when) {

	}

}
