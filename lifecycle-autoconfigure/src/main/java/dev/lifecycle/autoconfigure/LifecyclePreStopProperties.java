package dev.lifecycle.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * The pre-stop file: Kubernetes' preStop hook creates it ({@code touch /tmp/shutdown}) so
 * the shutdown starts before SIGTERM, without a {@code sleep} binary in the image.
 *
 * <p>
 * The {@code lifecycle.pre-stop.*} group of {@link LifecycleManagerProperties}.
 */
public class LifecyclePreStopProperties {

	/**
	 * Whether the appearance of the pre-stop file starts a shutdown. Defaults to true
	 * when Spring Boot detects Kubernetes or 'lifecycle.pre-stop.path' is set, and false
	 * elsewhere, so that services on one laptop never share '/tmp/shutdown'.
	 */
	private @Nullable Boolean enabled;

	/**
	 * Absolute path of the pre-stop file. Setting it switches the watcher on unless
	 * 'lifecycle.pre-stop.enabled' is false. A file already there at start-up is deleted
	 * with a warning, never taken as a shutdown request.
	 */
	private @Nullable String path;

	public @Nullable Boolean getEnabled() {
		return this.enabled;
	}

	public void setEnabled(@Nullable Boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getPath() {
		return this.path;
	}

	public void setPath(@Nullable String path) {
		this.path = path;
	}

}
