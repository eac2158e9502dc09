package dev.lifecycle.sample.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.lifecycle.sample.deploy.SpringSettingsBinder.Key;
import dev.lifecycle.sample.deploy.SpringSettingsBinder.ManifestSet;
import dev.lifecycle.sample.deploy.SpringSettingsBinder.Request;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's Kubernetes configuration, bound by Spring as the pod would bind it: the
 * ConfigMap overrides the jar's application.yml, the container's environment overrides
 * both through relaxed names, and a value Spring cannot convert is reported with its
 * property.
 */
class SpringSettingsBinderTests {

	private static final Path DEPLOY = Path.of("..", "deploy", "k8s");

	private static final String APP_CONFIG = Path.of("src", "main", "resources", "application.yml")
		.toAbsolutePath()
		.toString();

	private static final List<Key> KEYS = List.of(new Key("lifecycle.drain-delay", "duration", null),
			new Key("lifecycle.global-shutdown-timeout", "duration", "60s"),
			new Key("sample.pipeline.stop-timeout", "duration", "120s"),
			new Key("management.server.port", "string", null),
			new Key("management.endpoints.web.exposure.include", "list", null),
			new Key("lifecycle.pre-stop.path", "string", null));

	@Test
	void theShippedManifestsGiveTheTimingsTheGracePeriodIsDerivedFrom() throws Exception {
		Map<String, Map<String, Object>> properties = bind(deploymentEnv());
		assertThat(properties.get("lifecycle.drain-delay")).containsEntry("seconds", 5.0)
			.containsEntry("source", SpringSettingsBinder.CONFIG_MAP);
		assertThat(properties.get("lifecycle.global-shutdown-timeout")).containsEntry("seconds", 60.0);
		assertThat(properties.get("sample.pipeline.stop-timeout")).containsEntry("seconds", 45.0);
		assertThat(properties.get("management.server.port")).containsEntry("value", "8081");
		assertThat(properties.get("management.endpoints.web.exposure.include")).containsEntry("value",
				"health,prometheus");
	}

	@Test
	void theContainersEnvironmentWinsThroughRelaxedNames() throws Exception {
		Map<String, String> env = new LinkedHashMap<>(deploymentEnv());
		env.put("LIFECYCLE_DRAINDELAY", "7s");
		env.put("SAMPLE_PIPELINE_STOPTIMEOUT", "PT30S");
		Map<String, Map<String, Object>> properties = bind(env);
		assertThat(properties.get("lifecycle.drain-delay")).containsEntry("seconds", 7.0)
			.containsEntry("source", SpringSettingsBinder.ENV);
		assertThat(properties.get("sample.pipeline.stop-timeout")).containsEntry("seconds", 30.0);
	}

	@Test
	void aValueSpringCannotConvertIsReportedWithItsProperty() throws Exception {
		Map<String, String> env = new LinkedHashMap<>(deploymentEnv());
		env.put("LIFECYCLE_GLOBALSHUTDOWNTIMEOUT", "one minute");
		Map<String, Map<String, Object>> properties = bind(env);
		assertThat((String) properties.get("lifecycle.global-shutdown-timeout").get("error"))
			.contains("lifecycle.global-shutdown-timeout", "one minute");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Map<String, Object>> bind(Map<String, String> env) throws Exception {
		String configMap = (String) ((Map<String, Object>) yaml(DEPLOY.resolve("configmap.yaml")).get("data"))
			.get("application.yml");
		Map<String, Object> response = SpringSettingsBinder
			.bind(new Request(APP_CONFIG, KEYS, List.of(new ManifestSet("base", configMap, env))));
		Map<String, Object> set = ((Map<String, Map<String, Object>>) response.get("sets")).get("base");
		assertThat(set).doesNotContainKey("error");
		return (Map<String, Map<String, Object>>) set.get("properties");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, String> deploymentEnv() throws Exception {
		Map<String, Object> deployment = yaml(DEPLOY.resolve("deployment.yaml"));
		Map<String, Object> spec = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) deployment
			.get("spec")).get("template")).get("spec");
		Map<String, Object> container = ((List<Map<String, Object>>) spec.get("containers")).get(0);
		Map<String, String> env = new LinkedHashMap<>();
		for (Map<String, Object> variable : (List<Map<String, Object>>) container.get("env")) {
			env.put((String) variable.get("name"), String.valueOf(variable.get("value")));
		}
		return env;
	}

	private static Map<String, Object> yaml(Path file) throws Exception {
		return new Yaml().load(Files.readString(file));
	}

}
