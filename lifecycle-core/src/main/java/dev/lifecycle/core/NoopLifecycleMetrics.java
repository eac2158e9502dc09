package dev.lifecycle.core;

final class NoopLifecycleMetrics implements LifecycleMetrics {

	static final NoopLifecycleMetrics INSTANCE = new NoopLifecycleMetrics();

	private NoopLifecycleMetrics() {
	}

}
