package dev.lifecycle.core;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

class ArchitectureTest {

	/** The engine's internal packages, lowest floor first. */
	private static final List<String> FLOORS = List.of("dev.lifecycle.core.record", "dev.lifecycle.core.component",
			"dev.lifecycle.core.sequence");

	private static final JavaClasses ENGINE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.lifecycle.core");

	/**
	 * Types a Lifecycle user imports next to the engine's: Spring Framework's and Spring
	 * Boot's lifecycle, exit, availability and health types, and the public names of our
	 * own Spring layer ({@code dev.lifecycle.spring}). A core type of the same simple
	 * name would force a qualified name on one of them.
	 */
	private static final Set<String> NAMES_USERS_IMPORT_ALONGSIDE = Set.of(
			// org.springframework.context and .context.support
			"Lifecycle", "SmartLifecycle", "LifecycleProcessor", "DefaultLifecycleProcessor",
			// org.springframework.boot and .boot.autoconfigure.context
			"LifecycleAutoConfiguration", "LifecycleProperties", "ExitCodeGenerator",
			"SpringApplicationShutdownHandlers",
			// org.springframework.boot.web.server, .boot.availability,
			// .boot.health.contributor
			"GracefulShutdownCallback", "GracefulShutdownResult", "AvailabilityState", "ReadinessState",
			"LivenessState", "Health", "HealthIndicator", "Status",
			// org.springframework.stereotype
			"Component",
			// dev.lifecycle.spring
			"ShutdownHandler", "FinalAction", "ManagedComponent", "LifecycleExit", "ReactiveCriticalSections");

	@Test
	void theEngineDependsOnNoSpringType() {
		noClasses().that()
			.resideInAPackage("dev.lifecycle.core..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework..")
			.check(ENGINE);
	}

	/**
	 * The engine's packages are floors: the API package {@code dev.lifecycle.core} at the
	 * bottom, then each internal package in {@link #FLOORS} order, each using only the
	 * floors below it. Only the engine's entry points, which build the floors, and the
	 * API package's own internals, which run them, reach up into an internal package.
	 */
	@Test
	void eachInternalPackageUsesOnlyTheApiAndTheFloorsBelowIt() {
		for (int floor = 0; floor < FLOORS.size(); floor++) {
			List<String> above = FLOORS.subList(floor + 1, FLOORS.size());
			if (!above.isEmpty()) {
				noClasses().that()
					.resideInAPackage(FLOORS.get(floor))
					.should()
					.dependOnClassesThat()
					.resideInAnyPackage(above.toArray(String[]::new))
					.check(ENGINE);
			}
		}
		noClasses().that()
			.resideInAPackage("dev.lifecycle.core")
			.and()
			.arePublic()
			.and()
			.doNotBelongToAnyOf(LifecycleManager.class, ShutdownRecord.class, ReportCodec.class)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(FLOORS.toArray(String[]::new))
			.as("no API type but the engine's entry points (the manager, and the report file's record and codec) uses an internal package")
			.check(ENGINE);
	}

	/**
	 * What an application may use of the engine is every public type of
	 * {@code dev.lifecycle.core}; every public type of an internal package is public only
	 * for the engine's other packages and says so with {@link Internal}.
	 */
	@Test
	void everyPublicTypeOfAnInternalPackageIsMarkedInternalAndNoApiTypeIs() {
		assertThat(ENGINE.stream()
			.filter((type) -> FLOORS.contains(type.getPackageName()) && type.isTopLevelClass()
					&& type.getModifiers().contains(JavaModifier.PUBLIC) && !type.isAnnotatedWith(Internal.class))
			.map(JavaClass::getName)).as("public types of the engine's internal packages not marked @Internal")
			.isEmpty();
		assertThat(ENGINE.stream()
			.filter((type) -> type.getPackageName().equals("dev.lifecycle.core")
					&& type.isAnnotatedWith(Internal.class))
			.map(JavaClass::getName)).as("API types marked @Internal").isEmpty();
	}

	@Test
	void noTwoPublicEngineTypesShareASimpleName() {
		Map<String, List<String>> byName = publicTypes().stream()
			.collect(Collectors.groupingBy(JavaClass::getSimpleName, TreeMap::new,
					Collectors.mapping(JavaClass::getName, Collectors.toList())));

		assertThat(byName).isNotEmpty().allSatisfy((name, types) -> assertThat(types).as(name).hasSize(1));
	}

	@Test
	void noPublicEngineTypeSharesItsNameWithASpringTypeUsersImportAlongside() {
		assertThat(publicTypes()).isNotEmpty()
			.allSatisfy((type) -> assertThat(NAMES_USERS_IMPORT_ALONGSIDE).as(type.getName())
				.doesNotContain(type.getSimpleName()));
	}

	/** The engine's API: its public types but those public only for its own packages. */
	private static List<JavaClass> publicTypes() {
		return ENGINE.stream()
			.filter((type) -> type.getModifiers().contains(JavaModifier.PUBLIC))
			.filter((type) -> !type.isAnnotatedWith(Internal.class) && !(type.getEnclosingClass().isPresent()
					&& type.getEnclosingClass().get().isAnnotatedWith(Internal.class)))
			.filter((type) -> !type.isAnonymousClass())
			.toList();
	}

}
