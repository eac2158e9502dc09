package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

class OptionValidationTest {

	private final LifecycleManager manager = LifecycleManager.builder("svc").build();

	@Test
	void advisoryWithoutLivenessDeadlineIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.register("backup", ComponentOptions.defaults().withTier(Tier.ADVISORY)))
			.withMessage("Component 'backup': livenessDeadline is required for an ADVISORY component; "
					+ "set one or use tier STANDARD");
	}

	@Test
	void advisoryWithGracefulBudgetIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.register("backup",
					ComponentOptions.defaults()
						.withTier(Tier.ADVISORY)
						.withLivenessDeadline(Duration.ofSeconds(5))
						.withGracefulShutdown(Duration.ofSeconds(5))))
			.withMessageStartingWith("Component 'backup': gracefulShutdown is not allowed on an ADVISORY component");
	}

	@Test
	void finiteAdvisoryIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.register("backup",
					ComponentOptions.defaults()
						.withTier(Tier.ADVISORY)
						.withLivenessDeadline(Duration.ofSeconds(5))
						.withFinite(true)))
			.withMessageStartingWith("Component 'backup': finite is not allowed on an ADVISORY component");
	}

	@Test
	void finiteSupportingComponentIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.register("applicationTaskExecutor",
					ComponentOptions.defaults().withSupporting(true).withFinite(true)))
			.withMessageStartingWith(
					"Component 'applicationTaskExecutor': finite is not allowed on a supporting component");
	}

	@Test
	void observabilityWithLivenessDeadlineIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.manager.register("metrics",
				ComponentOptions.defaults().withTier(Tier.OBSERVABILITY).withLivenessDeadline(Duration.ofSeconds(5))))
			.withMessageStartingWith("Component 'metrics': livenessDeadline is not allowed on an OBSERVABILITY");
	}

	@Test
	void nonPositiveDurationsAreRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(
					() -> this.manager.register("c", ComponentOptions.defaults().withGracefulShutdown(Duration.ZERO)))
			.withMessage("Component 'c': gracefulShutdown must be positive but was PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.register("c",
					ComponentOptions.defaults().withLivenessDeadline(Duration.ofSeconds(-1))))
			.withMessage("Component 'c': livenessDeadline must be positive but was PT-1S");
	}

	@Test
	void stallThresholdBelowOneIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.register("c",
					ComponentOptions.defaults().withLivenessDeadline(Duration.ofSeconds(5)).withStallThreshold(0)))
			.withMessage("Component 'c': stallThreshold must be at least 1 but was 0");
	}

	@Test
	void duplicateAndBlankNamesAreRejected() {
		this.manager.register("c", ComponentOptions.defaults());
		assertThatIllegalArgumentException().isThrownBy(() -> this.manager.register("c", ComponentOptions.defaults()))
			.withMessage("Component 'c': name is already registered; component names must be unique");
		assertThatIllegalArgumentException().isThrownBy(() -> this.manager.register(" ", ComponentOptions.defaults()))
			.withMessage("Component name must not be blank");
	}

	@Test
	void registrationAfterStartIsRejected() throws InterruptedException {
		this.manager.start();
		assertThatIllegalStateException().isThrownBy(() -> this.manager.register("late", ComponentOptions.defaults()))
			.withMessage("Cannot register component 'late': the lifecycle manager has already started");
		this.manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
		this.manager.awaitTermination();
	}

	@Test
	void invalidManagerOptionsAreRejectedNamingTheOption() {
		assertThatIllegalArgumentException().isThrownBy(() -> LifecycleManager.builder(" ").build())
			.withMessage("serviceName must not be blank");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc").globalShutdownTimeout(Duration.ZERO).build())
			.withMessage("globalShutdownTimeout must be positive but was PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc").healthPollInterval(Duration.ofSeconds(-5)).build())
			.withMessage("healthPollInterval must be positive but was PT-5S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc").drainDelay(Duration.ofSeconds(-1)).build())
			.withMessage("drainDelay must not be negative but was PT-1S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc")
				.drainDelay(Duration.ofSeconds(60))
				.globalShutdownTimeout(Duration.ofSeconds(30))
				.build())
			.withMessage("drainDelay (PT1M) must be shorter than globalShutdownTimeout (PT30S), which bounds it");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc").preStopFile(Path.of("tmp/shutdown")).build())
			.withMessage("preStopFile must be an absolute path but was 'tmp/shutdown'");
	}

	@Test
	void theOptionsResolverOverridesWhatCodeDeclaredAndItsResultIsValidated() {
		LifecycleManager manager = LifecycleManager.builder("svc")
			.componentOptions((name, declared) -> name.equals("payment-executor") ? declared.withPhase(12) : declared)
			.build();
		manager.registerExecutor("payment-executor", ComponentOptions.defaults().withPhase(3),
				java.util.concurrent.Executors.newSingleThreadExecutor());
		assertThat(manager.components()).singleElement().satisfies((c) -> assertThat(c.phase()).isEqualTo(12));

		LifecycleManager invalid = LifecycleManager.builder("svc")
			.componentOptions((name, declared) -> declared.withStallThreshold(0))
			.build();
		assertThatIllegalArgumentException().isThrownBy(() -> invalid.register("worker", ComponentOptions.defaults()))
			.withMessage("Component 'worker': stallThreshold must be at least 1 but was 0");
	}

	@Test
	void durationsLongerThanADayAreRejectedAtStartSoNoShutdownArithmeticCanOverflow() {
		Duration huge = Duration.ofDays(1_000_000);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc").globalShutdownTimeout(huge).build())
			.withMessage("globalShutdownTimeout must be at most PT24H (1 day), the longest duration Lifecycle "
					+ "accepts, but was PT24000000H");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc").healthPollInterval(huge).build())
			.withMessageStartingWith("healthPollInterval must be at most PT24H (1 day)");
		assertThatIllegalArgumentException().isThrownBy(() -> LifecycleManager.builder("svc").drainDelay(huge).build())
			.withMessageStartingWith("drainDelay must be at most PT24H (1 day)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc")
				.drainDelay(Duration.ofSeconds(10))
				.drainQuietPeriod(huge, Duration.ZERO)
				.build())
			.withMessageStartingWith("drainQuietPeriod must be at most PT24H (1 day)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.register("c", ComponentOptions.defaults().withGracefulShutdown(huge)))
			.withMessageStartingWith("Component 'c': gracefulShutdown must be at most PT24H (1 day)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.register("c", ComponentOptions.defaults().withLivenessDeadline(huge)))
			.withMessageStartingWith("Component 'c': livenessDeadline must be at most PT24H (1 day)");
		assertThatIllegalArgumentException().isThrownBy(() -> this.manager.addShutdownHandler("h", huge, () -> {
		})).withMessageStartingWith("shutdown handler 'h' timeout must be at most PT24H (1 day)");
		assertThatIllegalArgumentException().isThrownBy(() -> this.manager.addClosingStep("s", huge, () -> {
		})).withMessageStartingWith("closing step 's' timeout must be at most PT24H (1 day)");
		InvalidOptionException rejected = org.assertj.core.api.Assertions.catchThrowableOfType(
				() -> LifecycleManager.builder("svc").globalShutdownTimeout(huge).build(),
				InvalidOptionException.class);
		assertThat(rejected.option()).isEqualTo("globalShutdownTimeout");
		assertThat(rejected.component()).isNull();
	}

	@Test
	void everyDurationHasALowerBoundAndTheErrorCarriesItsKindAndLimit() {
		Duration nanosecond = Duration.ofNanos(1);
		InvalidOptionException poll = org.assertj.core.api.Assertions.catchThrowableOfType(
				() -> LifecycleManager.builder("svc").healthPollInterval(nanosecond).build(),
				InvalidOptionException.class);
		assertThat(poll).hasMessage("healthPollInterval must be at least 10ms but was PT0.000000001S");
		assertThat(poll.kind()).isEqualTo(InvalidOptionException.Kind.TOO_SMALL);
		assertThat(poll.limit()).isEqualTo("10ms");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc").globalShutdownTimeout(nanosecond).build())
			.withMessage("globalShutdownTimeout must be at least 1ms but was PT0.000000001S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.register("c", ComponentOptions.defaults().withGracefulShutdown(nanosecond)))
			.withMessage("Component 'c': gracefulShutdown must be at least 1ms but was PT0.000000001S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.register("c", ComponentOptions.defaults().withLivenessDeadline(nanosecond)))
			.withMessage("Component 'c': livenessDeadline must be at least 1ms but was PT0.000000001S");
		assertThatIllegalArgumentException().isThrownBy(() -> this.manager.addClosingStep("s", nanosecond, () -> {
		})).withMessage("closing step 's' timeout must be at least 1ms but was PT0.000000001S");
		InvalidOptionException zero = org.assertj.core.api.Assertions
			.catchThrowableOfType(() -> this.manager.addClosingStep("s", Duration.ZERO, () -> {
			}), InvalidOptionException.class);
		assertThat(zero.kind()).isEqualTo(InvalidOptionException.Kind.TOO_SMALL);
		assertThat(zero.limit()).isEqualTo("1ms");
		InvalidOptionException huge = org.assertj.core.api.Assertions
			.catchThrowableOfType(() -> this.manager.addClosingStep("s", Duration.ofDays(400), () -> {
			}), InvalidOptionException.class);
		assertThat(huge.kind()).isEqualTo(InvalidOptionException.Kind.TOO_LARGE);
		assertThat(huge.limit()).isEqualTo("24h");
		InvalidOptionException advisory = org.assertj.core.api.Assertions.catchThrowableOfType(
				() -> this.manager.register("c", ComponentOptions.defaults().withTier(Tier.ADVISORY)),
				InvalidOptionException.class);
		assertThat(advisory.kind()).isEqualTo(InvalidOptionException.Kind.REQUIRED);
		LifecycleManager.builder("svc")
			.healthPollInterval(Duration.ofMillis(10))
			.globalShutdownTimeout(Duration.ofMillis(1))
			.build();
	}

	@Test
	void aDayIsAcceptedForEveryDuration() throws InterruptedException {
		Duration day = ComponentOptions.MAX_DURATION;
		LifecycleManager manager = LifecycleManager.builder("svc")
			.globalShutdownTimeout(day)
			.healthPollInterval(day)
			.drainDelay(day.minusSeconds(1))
			.build();
		manager.register("c", ComponentOptions.defaults().withGracefulShutdown(day).withLivenessDeadline(day));
		manager.addShutdownHandler("h", day, () -> {
		});
		assertThat(manager.globalShutdownTimeout()).isEqualTo(Duration.ofDays(1));
	}

	@Test
	void countsAreRangeChecked() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.register("c",
					ComponentOptions.defaults()
						.withLivenessDeadline(Duration.ofSeconds(5))
						.withStallThreshold(Integer.MAX_VALUE)))
			.withMessage("Component 'c': stallThreshold must be at most 10000 but was 2147483647");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc").shutdownReports(-1).build())
			.withMessage("shutdownReports must not be negative but was -1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc").shutdownReports(1_000_000).build())
			.withMessage("shutdownReports must be at most 10000 but was 1000000");
	}

	@Test
	void theCodeOfIncompleteWorkIsAProcessStatusThatMeansNothingElse() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc").incompleteExitCode(-1).validate())
			.withMessage("incompleteExitCode must not be negative but was -1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LifecycleManager.builder("svc").incompleteExitCode(256).validate())
			.withMessage("incompleteExitCode must be at most 255 but was 256");
		for (ExitCodes.Code taken : ExitCodes.declared()) {
			if (taken.code() != ExitCodes.CLEAN && taken.code() != ExitCodes.INCOMPLETE) {
				InvalidOptionException rejected = org.assertj.core.api.Assertions.catchThrowableOfType(
						() -> LifecycleManager.builder("svc").incompleteExitCode(taken.code()).validate(),
						InvalidOptionException.class);
				assertThat(rejected.kind()).isEqualTo(InvalidOptionException.Kind.INVALID);
				assertThat(rejected.option()).isEqualTo("incompleteExitCode");
				assertThat(rejected.problem()).contains("which already means '" + taken.name() + "'");
			}
		}
		LifecycleManager.builder("svc").incompleteExitCode(0).validate();
		LifecycleManager.builder("svc").incompleteExitCode(2).validate();
		LifecycleManager.builder("svc").incompleteExitCode(255).validate();
	}

}
