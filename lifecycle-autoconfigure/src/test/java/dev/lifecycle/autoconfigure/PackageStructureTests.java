package dev.lifecycle.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.lifecycle.core.Internal;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring layer's packages by concern: which package may use which, and which optional
 * dependency each one alone may load.
 */
class PackageStructureTests {

	private static final JavaClasses LIFECYCLE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.lifecycle");

	/**
	 * No two of Lifecycle's modules' packages, nor two packages of the Spring layer,
	 * depend on each other. The engine's own packages are floors, held by the engine's
	 * architecture test.
	 */
	@Test
	void noTwoPackagesDependOnEachOther() {
		slices().matching("dev.lifecycle.(*)..").should().beFreeOfCycles().check(LIFECYCLE);
		slices().matching("dev.lifecycle.autoconfigure.(**)").should().beFreeOfCycles().check(LIFECYCLE);
	}

	@Test
	void rootPackageDependsOnNoConcernPackage() {
		noClasses().that()
			.resideInAPackage("dev.lifecycle.autoconfigure")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.lifecycle.autoconfigure.(*)..")
			.check(LIFECYCLE);
	}

	@Test
	void webDrainDoesNotTouchTheProcess() {
		noClasses().that()
			.resideInAPackage("dev.lifecycle.autoconfigure.web..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.lifecycle.autoconfigure.process..")
			.check(LIFECYCLE);
	}

	@Test
	void theEngineAndThePublicAnnotationsDependOnNoAutoConfiguration() {
		noClasses().that()
			.resideInAnyPackage("dev.lifecycle.core..", "dev.lifecycle.spring..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.lifecycle.autoconfigure..")
			.check(LIFECYCLE);
	}

	@Test
	void eachOptionalDependencyIsLoadedOnlyByItsOwnPackage() {
		Map<String, List<String>> owners = Map.of("jakarta.servlet..",
				List.of("..web.servlet..", "..web.socket..", "..web.http2.."), "org.springframework.web.reactive..",
				List.of("..web.reactive..", "..web.socket.."), "org.springframework.web.socket..",
				List.of("..web.socket.."), "io.micrometer.core..", List.of("..metrics..", "..observation.."),
				"io.micrometer.observation..", List.of("..observation.."), "io.prometheus..",
				List.of("..metrics.pushgateway.."), "org.springframework.boot.actuate..", List.of("..actuate.."),
				"io.grpc..", List.of("..grpc.."), "org.springframework.grpc..", List.of("..grpc.."),
				"org.springframework.batch..", List.of("..batch.."));
		owners.forEach((dependency, packages) -> noClasses().that()
			.resideInAPackage("dev.lifecycle.autoconfigure..")
			.and()
			.resideOutsideOfPackages(packages.toArray(String[]::new))
			.should()
			.dependOnClassesThat()
			.resideInAPackage(dependency)
			.as("only " + String.join(", ", packages) + " use " + dependency)
			.check(LIFECYCLE));
	}

	@Test
	void aWebServersOwnTypesAreUsedOnlyByTypesNamedForIt() {
		Map<String, List<String>> servers = Map.of("Tomcat",
				List.of("org.apache.catalina..", "org.apache.coyote..", "org.apache.tomcat.."), "Jetty",
				List.of("org.eclipse.jetty.."), "Netty", List.of("io.netty..", "reactor.netty.."));
		servers.forEach((server, packages) -> noClasses().that()
			.resideInAPackage("dev.lifecycle.autoconfigure..")
			.and(namedFor(server).negate())
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(packages.toArray(String[]::new))
			.as("only types named for " + server + " (or the auto-configurations' conditions) use "
					+ String.join(", ", packages))
			.check(LIFECYCLE));
	}

	/** A type whose outermost class is named for the server, or an auto-configuration. */
	private static DescribedPredicate<JavaClass> namedFor(String server) {
		return DescribedPredicate.describe("named for " + server, (type) -> {
			String outermost = type.getName().substring(type.getPackageName().length() + 1).split("\\$")[0];
			return outermost.contains(server) || outermost.endsWith("AutoConfiguration");
		});
	}

	@Test
	void noTwoPublicTypesShareASimpleNameWithEachOtherOrWithSpringBoot() {
		Map<String, Set<String>> byName = new TreeMap<>();
		LIFECYCLE.stream()
			.filter((type) -> type.getModifiers().contains(JavaModifier.PUBLIC) && type.isTopLevelClass())
			.forEach((type) -> byName.computeIfAbsent(type.getSimpleName(), (name) -> new TreeSet<>())
				.add(type.getName()));
		Map<String, Set<String>> shared = byName.entrySet()
			.stream()
			.filter((entry) -> entry.getValue().size() > 1)
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
		assertThat(shared).as("public types of Lifecycle sharing a simple name").isEmpty();

		JavaClasses spring = new ClassFileImporter().importPackages("org.springframework.boot",
				"org.springframework.context");
		Set<String> springNames = spring.stream()
			.filter((type) -> type.getModifiers().contains(JavaModifier.PUBLIC))
			.map(JavaClass::getSimpleName)
			.collect(Collectors.toSet());
		assertThat(byName.keySet()).as("public types of Lifecycle named like a type of Spring Boot or Spring's context")
			.doesNotContainAnyElementsOf(springNames);
	}

	/**
	 * What an application may use of the Spring layer: the public annotations of
	 * {@code dev.lifecycle.spring}, the auto-configurations, the properties and their
	 * groups, the endpoint and the exception a bad configuration fails the start with.
	 * Every other public type is public only for Lifecycle's own packages and says so
	 * with {@link Internal}; none is left unmarked.
	 */
	@Test
	void everyPublicTypeIsApiOrMarkedInternal() {
		List<String> unmarked = LIFECYCLE.stream()
			.filter((type) -> type.getPackageName().startsWith("dev.lifecycle.autoconfigure"))
			.filter((type) -> type.getModifiers().contains(JavaModifier.PUBLIC) && type.isTopLevelClass())
			.filter((type) -> !isApi(type) && !type.isAnnotatedWith(Internal.class))
			.map(JavaClass::getName)
			.sorted()
			.toList();
		assertThat(unmarked).as("public types of the Spring layer that are neither API nor @Internal").isEmpty();
		assertThat(LIFECYCLE.stream().filter((type) -> isApi(type) && type.isAnnotatedWith(Internal.class)))
			.as("API types marked @Internal")
			.isEmpty();
	}

	private static boolean isApi(JavaClass type) {
		return type.getName().equals(InvalidLifecycleConfigurationException.class.getName())
				|| type.isAnnotatedWith(AutoConfiguration.class) || type.isAnnotatedWith(ConfigurationProperties.class)
				|| type.isAnnotatedWith(Endpoint.class) || isPropertyGroup(type);
	}

	/**
	 * A group of the properties in a class of its own ({@code lifecycle.pre-stop.*},
	 * say).
	 */
	private static boolean isPropertyGroup(JavaClass type) {
		return LIFECYCLE.stream()
			.filter((owner) -> owner.isAnnotatedWith(ConfigurationProperties.class))
			.flatMap((owner) -> owner.getFields().stream())
			.anyMatch((field) -> field.isAnnotatedWith(NestedConfigurationProperty.class)
					&& field.getRawType().equals(type));
	}

}
