/**
 * Spring Boot integration for Lifecycle: auto-configuration, configuration properties, the
 * health contributor, the lifecycle endpoint and what governs the web server's drain. Nothing
 * here is null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.lifecycle.autoconfigure;

import org.jspecify.annotations.NullMarked;
