package dev.lifecycle.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * The run marker: a file that exists while the process runs. Finding it at start-up means
 * the previous process ended without finishing a shutdown (SIGKILL, OOM kill), which is
 * counted as lifecycle_shutdown_initiated_total{trigger_component="previous-run",
 * trigger_reason="unclean"}. On Kubernetes, put it on a volume that outlives a container
 * restart, such as an emptyDir.
 *
 * <p>
 * The {@code lifecycle.run-marker.*} group of {@link LifecycleManagerProperties}.
 */
public class LifecycleRunMarkerProperties {

	/**
	 * Whether to keep a run marker and report an unclean previous run.
	 */
	private boolean enabled = true;

	/**
	 * Path of the run marker. Defaults to 'lifecycle-<service-name>.running' in the
	 * 'java.io.tmpdir' directory.
	 */
	private @Nullable String path;

	/**
	 * How many shutdown reports (JSON, written as each shutdown goes) to keep next to the
	 * run marker; 0 writes none. The next start logs a summary of the newest and shows it
	 * in the lifecycle endpoint.
	 */
	private int reports = 5;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getPath() {
		return this.path;
	}

	public void setPath(@Nullable String path) {
		this.path = path;
	}

	public int getReports() {
		return this.reports;
	}

	public void setReports(int reports) {
		this.reports = reports;
	}

}
