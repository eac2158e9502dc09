package dev.lifecycle.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * Immutable per-component options. Start from {@link #defaults()} and derive with the
 * {@code with…} methods. Combinations are checked when the component is registered, where
 * the component's name is known, so that the error names both the component and the
 * option.
 */
public final class ComponentOptions {

	/** The budget an observability component gets when it sets none. */
	public static final Duration DEFAULT_OBSERVABILITY_BUDGET = Duration.ofSeconds(1);

	/**
	 * The longest duration any option of the engine accepts, a component's or the
	 * manager's: one day, far beyond any useful budget, deadline, delay or ceiling, and
	 * small enough that no arithmetic on it can overflow during a shutdown.
	 */
	public static final Duration MAX_DURATION = OptionRules.MAX_DURATION;

	/**
	 * The highest count any option of the engine accepts (a stall threshold, a number of
	 * reports).
	 */
	public static final int MAX_COUNT = OptionRules.MAX_COUNT;

	private static final ComponentOptions DEFAULTS = new ComponentOptions(0, Tier.STANDARD, null, null, 1, false,
			false);

	private final int phase;

	private final Tier tier;

	private final @Nullable Duration gracefulShutdown;

	private final @Nullable Duration livenessDeadline;

	private final int stallThreshold;

	private final boolean finite;

	private final boolean supporting;

	private ComponentOptions(int phase, Tier tier, @Nullable Duration gracefulShutdown,
			@Nullable Duration livenessDeadline, int stallThreshold, boolean finite, boolean supporting) {
		this.phase = phase;
		this.tier = Objects.requireNonNull(tier, "tier");
		this.gracefulShutdown = gracefulShutdown;
		this.livenessDeadline = livenessDeadline;
		this.stallThreshold = stallThreshold;
		this.finite = finite;
		this.supporting = supporting;
	}

	/**
	 * Phase 0, {@link Tier#STANDARD}, no budget, no liveness deadline, stall threshold 1,
	 * not finite.
	 */
	public static ComponentOptions defaults() {
		return DEFAULTS;
	}

	/** Higher phases are told to stop first and started last. */
	public ComponentOptions withPhase(int phase) {
		return new ComponentOptions(phase, this.tier, this.gracefulShutdown, this.livenessDeadline, this.stallThreshold,
				this.finite, this.supporting);
	}

	public ComponentOptions withTier(Tier tier) {
		return new ComponentOptions(this.phase, tier, this.gracefulShutdown, this.livenessDeadline, this.stallThreshold,
				this.finite, this.supporting);
	}

	/**
	 * How long the component may take to drain once told to stop; {@code null} for no
	 * budget.
	 */
	public ComponentOptions withGracefulShutdown(@Nullable Duration gracefulShutdown) {
		return new ComponentOptions(this.phase, this.tier, gracefulShutdown, this.livenessDeadline, this.stallThreshold,
				this.finite, this.supporting);
	}

	/**
	 * The longest gap allowed between heartbeats; {@code null} for no health monitoring.
	 */
	public ComponentOptions withLivenessDeadline(@Nullable Duration livenessDeadline) {
		return new ComponentOptions(this.phase, this.tier, this.gracefulShutdown, livenessDeadline, this.stallThreshold,
				this.finite, this.supporting);
	}

	/**
	 * How many consecutive stalled polls it takes to declare the component stalled (≥ 1).
	 */
	public ComponentOptions withStallThreshold(int stallThreshold) {
		return new ComponentOptions(this.phase, this.tier, this.gracefulShutdown, this.livenessDeadline, stallThreshold,
				this.finite, this.supporting);
	}

	/**
	 * Declares the component's work finite. When every standard component has completed
	 * its work the manager shuts down on its own with reason
	 * {@link ShutdownReason#COMPLETED}; that automatic completion is active only if at
	 * least one component is finite.
	 */
	public ComponentOptions withFinite(boolean finite) {
		return new ComponentOptions(this.phase, this.tier, this.gracefulShutdown, this.livenessDeadline,
				this.stallThreshold, finite, this.supporting);
	}

	/**
	 * Declares the component a supporting one: it serves the components that do the work
	 * (an executor, a scheduler, a listener container, a web server), so it neither holds
	 * back nor triggers the automatic {@link ShutdownReason#COMPLETED completed}
	 * shutdown. It is stopped by every shutdown as usual. A supporting component cannot
	 * be finite.
	 */
	public ComponentOptions withSupporting(boolean supporting) {
		return new ComponentOptions(this.phase, this.tier, this.gracefulShutdown, this.livenessDeadline,
				this.stallThreshold, this.finite, supporting);
	}

	public int phase() {
		return this.phase;
	}

	public Tier tier() {
		return this.tier;
	}

	public Optional<Duration> gracefulShutdown() {
		return Optional.ofNullable(this.gracefulShutdown);
	}

	public Optional<Duration> livenessDeadline() {
		return Optional.ofNullable(this.livenessDeadline);
	}

	public int stallThreshold() {
		return this.stallThreshold;
	}

	public boolean finite() {
		return this.finite;
	}

	/**
	 * Whether it serves the components that do the work; see
	 * {@link #withSupporting(boolean)}.
	 */
	public boolean supporting() {
		return this.supporting;
	}

	/**
	 * The budget the drain applies: the configured one, or 1 s for observability, else
	 * none.
	 */
	public Optional<Duration> effectiveBudget() {
		if (this.gracefulShutdown == null && this.tier == Tier.OBSERVABILITY) {
			return Optional.of(DEFAULT_OBSERVABILITY_BUDGET);
		}
		return gracefulShutdown();
	}

	/**
	 * Rejects invalid combinations with a message naming the component and the option.
	 * @throws InvalidOptionException on the first invalid option
	 */
	void validate(String component) {
		if (this.gracefulShutdown != null) {
			OptionRules.positive(component, "gracefulShutdown", this.gracefulShutdown);
		}
		if (this.livenessDeadline != null) {
			OptionRules.positive(component, "livenessDeadline", this.livenessDeadline);
		}
		OptionRules.count(component, "stallThreshold", this.stallThreshold, 1);
		if (this.tier == Tier.UNKNOWN) {
			throw invalid(component, "tier",
					"UNKNOWN only describes a report read back; use STANDARD, OBSERVABILITY, ADVISORY or INFRASTRUCTURE");
		}
		if (this.tier == Tier.OBSERVABILITY && this.livenessDeadline != null) {
			throw invalid(component, "livenessDeadline",
					"is not allowed on an OBSERVABILITY component; remove it or use tier STANDARD");
		}
		if (this.tier == Tier.ADVISORY && this.livenessDeadline == null) {
			throw new InvalidOptionException(component, "livenessDeadline", InvalidOptionException.Kind.REQUIRED, null,
					"is required for an ADVISORY component; set one or use tier STANDARD");
		}
		if (this.tier == Tier.ADVISORY && this.gracefulShutdown != null) {
			throw invalid(component, "gracefulShutdown",
					"is not allowed on an ADVISORY component (shutdown never waits for it); remove it");
		}
		if (this.tier == Tier.ADVISORY && this.finite) {
			throw invalid(component, "finite",
					"is not allowed on an ADVISORY component (it never decides shutdown); remove it");
		}
		if (this.tier == Tier.INFRASTRUCTURE && this.finite) {
			throw invalid(component, "finite", "is not allowed on an INFRASTRUCTURE component (it serves the "
					+ "components that do the work and never decides completion); remove it or use tier STANDARD");
		}
		if (this.supporting && this.finite) {
			throw invalid(component, "finite",
					"is not allowed on a supporting component (it serves the components that do the work); remove it");
		}
	}

	private static InvalidOptionException invalid(String component, String option, String problem) {
		return new InvalidOptionException(component, option, InvalidOptionException.Kind.NOT_ALLOWED, null, problem);
	}

	@Override
	public String toString() {
		return "ComponentOptions[phase=" + this.phase + ", tier=" + this.tier + ", gracefulShutdown="
				+ this.gracefulShutdown + ", livenessDeadline=" + this.livenessDeadline + ", stallThreshold="
				+ this.stallThreshold + ", finite=" + this.finite + ", supporting=" + this.supporting + "]";
	}

}
