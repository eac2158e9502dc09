package dev.lifecycle.sample.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Binds the configuration a Kubernetes pod gives the sample the way Spring Boot does at
 * start-up: the application.yml packaged in the jar, the ConfigMap's application.yml
 * added after it, the container's environment, profiles and the Kubernetes cloud
 * platform, with Spring's own config data loading, relaxed names and duration conversion.
 * {@code deploy/check.sh} hands it what each manifest set mounts and sets, and checks
 * timings, ports and paths against the values it prints.
 *
 * <p>
 * Run as {@code SpringSettingsBinder <request.json> <response.json>}. The request:
 * {@code {"appConfig": path or null, "keys": [{"key", "type": "duration|string|list",
 * "default"}], "sets": [{"name", "configMap": application.yml text or null, "env": {name:
 * value}}]}}. The response: {@code {"sets": {name: {"properties": {key: {"value",
 * "source", "seconds"}}}}}} with a {@code "error"} instead of a value when a set or a
 * value cannot be bound.
 */
public final class SpringSettingsBinder {

	static final String JAR = "jar application.yml";

	static final String CONFIG_MAP = "ConfigMap application.yml";

	static final String ENV = "container env";

	static final String DEFAULT = "default";

	private SpringSettingsBinder() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length != 2) {
			throw new IllegalArgumentException("usage: SpringSettingsBinder <request.json> <response.json>");
		}
		JsonMapper json = JsonMapper.builder().build();
		Request request = json.readValue(Files.readString(Path.of(args[0])), Request.class);
		Files.writeString(Path.of(args[1]), json.writeValueAsString(bind(request)));
	}

	static Map<String, Object> bind(Request request) throws IOException {
		Map<String, Object> sets = new LinkedHashMap<>();
		for (ManifestSet set : request.sets()) {
			Map<String, Object> result = new LinkedHashMap<>();
			try {
				result.put("properties", bind(request, set));
			}
			catch (RuntimeException ex) {
				result.put("error", message(ex));
			}
			sets.put(set.name(), result);
		}
		return Map.of("sets", sets);
	}

	private static Map<String, Object> bind(Request request, ManifestSet set) throws IOException {
		Path configMap = null;
		try {
			if (set.configMap() != null) {
				configMap = Files.createTempFile("configmap-", ".yml");
				Files.writeString(configMap, set.configMap());
			}
			StandardEnvironment environment = environment(request.appConfig(), configMap, set.env());
			Binder binder = Binder.get(environment);
			Map<String, Object> properties = new LinkedHashMap<>();
			for (Key key : request.keys()) {
				properties.put(key.key(), value(binder, environment, key, request.appConfig(), configMap));
			}
			return properties;
		}
		finally {
			if (configMap != null) {
				Files.deleteIfExists(configMap);
			}
		}
	}

	private static StandardEnvironment environment(String appConfig, Path configMap, Map<String, String> env) {
		StandardEnvironment environment = new StandardEnvironment();
		MutablePropertySources sources = environment.getPropertySources();
		sources.remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
		sources.remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
		Map<String, Object> container = new LinkedHashMap<>();
		// The pod's config locations are replaced by the files below.
		env.forEach((name, value) -> {
			if (!name.startsWith("SPRING_CONFIG_")) {
				container.put(name, value);
			}
		});
		// Named as Spring names the process environment, so that its relaxed names apply.
		sources.addLast(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
				container));
		Map<String, Object> pod = new LinkedHashMap<>();
		pod.put("spring.config.location", (appConfig != null) ? "optional:file:" + appConfig : "optional:file:./none/");
		if (configMap != null) {
			pod.put("spring.config.additional-location", "file:" + configMap);
		}
		pod.put("spring.main.cloud-platform", "kubernetes");
		sources.addLast(new MapPropertySource("pod", pod));
		ConfigDataEnvironmentPostProcessor.applyTo(environment);
		return environment;
	}

	private static Map<String, Object> value(Binder binder, StandardEnvironment environment, Key key, String appConfig,
			Path configMap) {
		Map<String, Object> out = new LinkedHashMap<>();
		ConfigurationPropertyName name = ConfigurationPropertyName.of(key.key());
		String source = source(environment, name, appConfig, configMap);
		try {
			switch (key.type()) {
				case "duration" -> {
					Duration bound = binder.bind(name, Bindable.of(Duration.class)).orElse(null);
					String raw = binder.bind(name, Bindable.of(String.class)).orElse(null);
					Duration effective = (bound != null) ? bound
							: (key.defaultValue() != null) ? DurationStyle.detectAndParse(key.defaultValue()) : null;
					out.put("value", raw);
					out.put("seconds", (effective != null) ? effective.toNanos() / 1e9 : null);
				}
				case "list" -> out.put("value",
						binder.bind(name, Bindable.listOf(String.class))
							.map((list) -> String.join(",", list))
							.orElse(null));
				default -> out.put("value", binder.bind(name, Bindable.of(String.class)).orElse(null));
			}
		}
		catch (BindException ex) {
			out.put("error",
					key.key() + ": '" + raw(environment, name) + "' (" + source + ") cannot be bound: " + message(ex));
		}
		out.put("source", (out.get("value") != null) ? source : DEFAULT);
		return out;
	}

	private static String source(StandardEnvironment environment, ConfigurationPropertyName name, String appConfig,
			Path configMap) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(name);
			if (property != null || source.containsDescendantOf(name) == ConfigurationPropertyState.PRESENT) {
				Object underlying = source.getUnderlyingSource();
				String described = (underlying instanceof org.springframework.core.env.PropertySource<?> ps)
						? ps.getName() : String.valueOf(underlying);
				if (configMap != null && described.contains(configMap.getFileName().toString())) {
					return CONFIG_MAP;
				}
				if (described.equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)) {
					return ENV;
				}
				if (appConfig != null && described.contains(Path.of(appConfig).getFileName().toString())) {
					return JAR;
				}
				return described;
			}
		}
		return DEFAULT;
	}

	private static String raw(StandardEnvironment environment, ConfigurationPropertyName name) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(name);
			if (property != null) {
				return String.valueOf(property.getValue());
			}
		}
		return "";
	}

	private static String message(Throwable ex) {
		Throwable cause = ex;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return cause.getMessage();
	}

	record Request(String appConfig, List<Key> keys, List<ManifestSet> sets) {
	}

	record Key(String key, String type, @com.fasterxml.jackson.annotation.JsonProperty("default") String defaultValue) {
	}

	record ManifestSet(String name, String configMap, Map<String, String> env) {
	}

}
