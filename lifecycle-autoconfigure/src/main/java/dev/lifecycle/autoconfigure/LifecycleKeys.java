package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.Internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.context.properties.BoundConfigurationProperties;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Rejects every key under {@code lifecycle.} that nothing binds, since Spring's binder
 * ignores a misspelt {@code lifecycle.drain-dealy} in silence and the real value stays at
 * its default. The known keys are not listed here: they are every {@code lifecycle.*}
 * property of the configuration metadata on the classpath (Lifecycle's own, and any other
 * library's or application's under that prefix), and every property the context's binder
 * actually bound (an application's own {@code @ConfigurationProperties} without
 * metadata). Keys under a map property belong to its entries;
 * {@code lifecycle.components.<name>.*} keys are checked against the component options
 * the metadata lists. Environment variables are not checked: their underscores make a
 * misspelt key and an unrelated variable that starts with {@code LIFECYCLE_}
 * indistinguishable.
 */
@Internal
public final class LifecycleKeys {

	/** Where the configuration processor writes the metadata of a jar or module. */
	static final String METADATA = "META-INF/spring-configuration-metadata.json";

	private static final String PREFIX = "lifecycle.";

	private static final String COMPONENTS = "lifecycle.components";

	private static final Log logger = LogFactory.getLog(LifecycleKeys.class);

	private final List<String> known;

	private final List<String> maps;

	private LifecycleKeys(List<String> known, List<String> maps) {
		this.known = known;
		this.maps = maps;
	}

	/**
	 * Checks every {@code lifecycle.*} key of the environment's property sources.
	 * @param environment the application's environment
	 * @param beanFactory the context's bean factory, for the properties its binder bound,
	 * or {@code null}
	 * @throws InvalidLifecycleConfigurationException naming the first unknown key, where
	 * it was set (by the failure analysis) and the closest known key
	 */
	public static void check(Environment environment, @Nullable ListableBeanFactory beanFactory) {
		ClassLoader classLoader = LifecycleKeys.class.getClassLoader();
		LifecycleKeys keys = fromMetadata(classLoader);
		if (beanFactory != null) {
			BoundConfigurationProperties bound = beanFactory.getBeanProvider(BoundConfigurationProperties.class)
				.getIfAvailable();
			if (bound != null) {
				bound.getAll().keySet().forEach((name) -> keys.known.add(name.toString()));
			}
		}
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)
					|| source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource) {
				continue;
			}
			iterable.stream()
				.filter((name) -> name.getNumberOfElements() > 1
						&& name.getElement(0, ConfigurationPropertyName.Form.UNIFORM).equals("lifecycle"))
				.forEach(keys::check);
		}
	}

	/**
	 * The keys every {@code lifecycle.*} property of the metadata on the classpath makes
	 * known.
	 */
	static LifecycleKeys fromMetadata(ClassLoader classLoader) {
		List<String> known = new ArrayList<>();
		List<String> maps = new ArrayList<>();
		Enumeration<URL> resources;
		try {
			resources = classLoader.getResources(METADATA);
		}
		catch (IOException ex) {
			logger.warn("Lifecycle: cannot list the configuration metadata; only bound 'lifecycle.*' keys are known",
					ex);
			resources = Collections.emptyEnumeration();
		}
		for (URL resource : Collections.list(resources)) {
			read(resource, known, maps);
		}
		return new LifecycleKeys(known, maps);
	}

	@SuppressWarnings("unchecked")
	private static void read(URL resource, List<String> known, List<String> maps) {
		String json;
		try (InputStream in = resource.openStream()) {
			json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			logger.warn("Lifecycle: cannot read configuration metadata " + resource + ": " + ex);
			return;
		}
		if (!json.contains("\"" + PREFIX)) {
			// Most jars' metadata has no Lifecycle key: not worth parsing.
			return;
		}
		Map<String, Object> metadata;
		try {
			metadata = JsonParserFactory.getJsonParser().parseMap(json);
		}
		catch (RuntimeException ex) {
			logger.warn("Lifecycle: cannot parse configuration metadata " + resource + ": " + ex);
			return;
		}
		for (String section : List.of("properties", "groups")) {
			if (!(metadata.get(section) instanceof List<?> entries)) {
				continue;
			}
			for (Object entry : entries) {
				if (entry instanceof Map<?, ?> item && item.get("name") instanceof String name
						&& name.startsWith(PREFIX)) {
					known.add(name);
					if (section.equals("properties") && item.get("type") instanceof String type
							&& type.startsWith("java.util.Map<")) {
						maps.add(name);
					}
				}
			}
		}
	}

	private void check(ConfigurationPropertyName name) {
		if (isKnown(name)) {
			return;
		}
		String closest = closest(name);
		if (ConfigurationPropertyName.of(COMPONENTS).isAncestorOf(name) && name.getNumberOfElements() > 2) {
			String component = name.getElement(2, ConfigurationPropertyName.Form.ORIGINAL);
			List<String> options = componentOptions();
			throw new InvalidLifecycleConfigurationException(name.toString(),
					"is not a component option; the options under '" + COMPONENTS + "." + component + ".' are "
							+ options,
					"Correct the key to '" + closest + "', the closest option, or to another of " + options
							+ ", or remove it.");
		}
		throw new InvalidLifecycleConfigurationException(name.toString(),
				"is not a Lifecycle property, so it would be ignored; the closest one is '" + closest + "'",
				"Correct the key to '" + closest + "', or remove it. Every property is listed in the manual's "
						+ "configuration reference and offered by the IDE.");
	}

	private boolean isKnown(ConfigurationPropertyName name) {
		for (String known : this.known) {
			if (matches(known, name)) {
				return true;
			}
		}
		for (String map : this.maps) {
			ConfigurationPropertyName mapName = ConfigurationPropertyName.of(map);
			if (mapName.isAncestorOf(name) && !hasEntryKeys(map)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether the metadata lists the keys of the map's entries, such as
	 * {@code lifecycle.components.*.phase}.
	 */
	private boolean hasEntryKeys(String map) {
		return this.known.stream().anyMatch((known) -> known.startsWith(map + ".*."));
	}

	/**
	 * A known name matches a key element by element, relaxed as the binder is; {@code *}
	 * matches any.
	 */
	private static boolean matches(String known, ConfigurationPropertyName name) {
		String[] elements = known.split("\\.");
		if (elements.length != name.getNumberOfElements()) {
			return false;
		}
		for (int i = 0; i < elements.length; i++) {
			if (!elements[i].equals("*")
					&& !uniform(elements[i]).equals(name.getElement(i, ConfigurationPropertyName.Form.UNIFORM))) {
				return false;
			}
		}
		return true;
	}

	private List<String> componentOptions() {
		Set<String> options = new LinkedHashSet<>();
		for (String known : this.known) {
			if (known.startsWith(COMPONENTS + ".*.")) {
				options.add(known.substring(COMPONENTS.length() + 3));
			}
		}
		return List.copyOf(options);
	}

	/**
	 * The known name closest to the key, a {@code *} standing for the key's own element.
	 */
	private String closest(ConfigurationPropertyName name) {
		String key = name.toString();
		String best = key;
		int bestDistance = Integer.MAX_VALUE;
		for (String known : this.known) {
			String candidate = instantiate(known, name);
			int distance = distance(key, candidate);
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		return best;
	}

	private static String instantiate(String known, ConfigurationPropertyName name) {
		String[] elements = known.split("\\.");
		for (int i = 0; i < elements.length; i++) {
			if (elements[i].equals("*") && i < name.getNumberOfElements()) {
				elements[i] = name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL);
			}
		}
		return String.join(".", elements);
	}

	private static String uniform(String element) {
		return element.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
	}

	/** Keeps the metadata in a native image, where the check reads it at start. */
	static final class MetadataHints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			hints.resources().registerPattern(METADATA);
		}

	}

	/** The edit distance between two keys: insertions, deletions and substitutions. */
	static int distance(String first, String second) {
		int[] previous = new int[second.length() + 1];
		int[] current = new int[second.length() + 1];
		for (int j = 0; j <= second.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= first.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= second.length(); j++) {
				int substitution = previous[j - 1] + ((first.charAt(i - 1) == second.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[second.length()];
	}

}
