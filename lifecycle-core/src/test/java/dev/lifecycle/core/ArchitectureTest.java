package dev.lifecycle.core;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

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

	private static List<JavaClass> publicTypes() {
		return ENGINE.stream()
			.filter((type) -> type.getModifiers().contains(JavaModifier.PUBLIC))
			.filter((type) -> !type.isAnonymousClass())
			.toList();
	}

}
