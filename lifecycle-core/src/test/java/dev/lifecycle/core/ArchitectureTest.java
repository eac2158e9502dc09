package dev.lifecycle.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

	@Test
	void theEngineDependsOnNoSpringType() {
		JavaClasses engine = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("dev.lifecycle.core");

		noClasses().that()
			.resideInAPackage("dev.lifecycle.core..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework..")
			.check(engine);
	}

}
