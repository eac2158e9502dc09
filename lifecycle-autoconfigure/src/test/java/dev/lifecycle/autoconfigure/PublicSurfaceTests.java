package dev.lifecycle.autoconfigure;

import java.util.List;
import java.util.Set;

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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an application may use of the Spring layer: the public annotations of
 * {@code dev.lifecycle.spring}, the properties, the endpoint and the exception a bad configuration
 * fails the start with. Every other public type is public only for Lifecycle's own packages and
 * says so with {@link Internal}, which tools and reviewers can see; none is left unmarked.
 */
class PublicSurfaceTests {

	private static final JavaClasses SPRING_LAYER = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.lifecycle.autoconfigure");

	/** Public for applications although no annotation below says so. */
	private static final Set<String> API = Set.of(InvalidLifecycleConfigurationException.class.getName());

	@Test
	void everyPublicTypeIsApiOrMarkedInternal() {
		List<String> unmarked = SPRING_LAYER.stream()
			.filter((type) -> type.getModifiers().contains(JavaModifier.PUBLIC) && type.isTopLevelClass())
			.filter((type) -> !isApi(type) && !type.isAnnotatedWith(Internal.class))
			.map(JavaClass::getName)
			.sorted()
			.toList();
		assertThat(unmarked).as("public types of the Spring layer that are neither API nor @Internal").isEmpty();
	}

	@Test
	void noApiTypeIsMarkedInternal() {
		assertThat(SPRING_LAYER.stream().filter((type) -> isApi(type) && type.isAnnotatedWith(Internal.class)))
			.isEmpty();
	}

	private static boolean isApi(JavaClass type) {
		return API.contains(type.getName()) || type.isAnnotatedWith(AutoConfiguration.class)
				|| type.isAnnotatedWith(ConfigurationProperties.class) || type.isAnnotatedWith(Endpoint.class);
	}

}
