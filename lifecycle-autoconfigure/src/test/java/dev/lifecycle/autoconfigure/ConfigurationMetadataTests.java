package dev.lifecycle.autoconfigure;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.lifecycle.core.ExitCodes;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generated metadata documents every property, so IDEs show what each does and its
 * default.
 */
class ConfigurationMetadataTests {

	/** Defaults computed at start-up, described in their descriptions instead. */
	private static final Set<String> COMPUTED_DEFAULTS = Set.of("lifecycle.service-name", "lifecycle.drain-delay",
			"lifecycle.pre-stop.enabled", "lifecycle.run-marker.path", "lifecycle.components",
			"lifecycle.drain-quiet-period", "lifecycle.streams.end-window");

	@Test
	@SuppressWarnings("unchecked")
	void everyPropertyHasADescriptionAndADefault() throws Exception {
		Map<String, Object> metadata;
		try (InputStream json = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			metadata = JsonMapper.builder().build().readValue(json, Map.class);
		}
		List<Map<String, Object>> properties = ((List<Map<String, Object>>) metadata.get("properties")).stream()
			.filter((property) -> ((String) property.get("name")).startsWith("lifecycle."))
			.toList();
		assertThat(properties).extracting((property) -> property.get("name"))
			.contains("lifecycle.enabled", "lifecycle.service-name", "lifecycle.global-shutdown-timeout",
					"lifecycle.drain-delay", "lifecycle.health-poll-interval", "lifecycle.close-context",
					"lifecycle.pre-stop.enabled", "lifecycle.pre-stop.path", "lifecycle.signals.trap",
					"lifecycle.run-marker.enabled", "lifecycle.run-marker.path", "lifecycle.components",
					"lifecycle.drain-quiet-period", "lifecycle.streams.end-window");
		assertThat(properties).allSatisfy((property) -> {
			assertThat((String) property.get("description")).as("description of %s", property.get("name")).isNotBlank();
			if (((String) property.get("name")).startsWith("lifecycle.components.*.")) {
				// Per-component keys default to the @ManagedComponent attribute.
				assertThat((String) property.get("description")).contains("Unset: the @ManagedComponent");
			}
			else if (!COMPUTED_DEFAULTS.contains(property.get("name"))) {
				assertThat(property).as("default of %s", property.get("name")).containsKey("defaultValue");
				if (property.get("name").equals("lifecycle.exit-code.incomplete")) {
					// Written in the additional metadata: the processor cannot read
					// another class's constant.
					assertThat(property.get("defaultValue")).isEqualTo(ExitCodes.INCOMPLETE);
				}
			}
			else if (!property.get("name").equals("lifecycle.components")) {
				assertThat((String) property.get("description")).containsIgnoringCase("default");
			}
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void theTierOfAComponentIsOfferedWithItsFourValues() throws Exception {
		Map<String, Object> metadata;
		try (InputStream json = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			metadata = JsonMapper.builder().build().readValue(json, Map.class);
		}
		List<Map<String, Object>> hints = (List<Map<String, Object>>) metadata.get("hints");
		assertThat(hints).filteredOn((hint) -> hint.get("name").equals("lifecycle.components.*.tier"))
			.singleElement()
			.satisfies((hint) -> assertThat((List<Map<String, Object>>) hint.get("values"))
				.extracting((value) -> value.get("value"))
				.containsExactly("standard", "observability", "advisory", "infrastructure"));
	}

	@Test
	void everyGroupInAClassOfItsOwnIsBoundInANativeImage() {
		List<Class<?>> groups = Arrays.stream(LifecycleManagerProperties.class.getDeclaredFields())
			.map(Field::getType)
			.filter((type) -> type.getSimpleName().endsWith("Properties"))
			.toList();
		assertThat(groups).hasSize(7);
		RuntimeHints hints = new RuntimeHints();
		BindableRuntimeHintsRegistrar.forTypes(LifecycleManagerProperties.class).registerHints(hints);
		assertThat(groups).allSatisfy((group) -> assertThat(RuntimeHintsPredicates.reflection().onType(group))
			.as("reflection hints for %s", group.getSimpleName())
			.accepts(hints));
	}

}
