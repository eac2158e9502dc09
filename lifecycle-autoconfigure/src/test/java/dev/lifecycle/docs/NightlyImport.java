package dev.lifecycle.docs;

import java.nio.file.Path;

import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.spring.ManagedComponent;

// tag::finite-job[]
@ManagedComponent(value = "nightly-import", finite = true)
class NightlyImport implements ActiveComponent {

	private final Inbox inbox;

	private final Importer importer;

	NightlyImport(Inbox inbox, Importer importer) {
		this.inbox = inbox;
		this.importer = importer;
	}

	@Override
	public void run(ComponentHandle handle) throws Exception {
		for (Path file : this.inbox.pending()) {
			if (handle.isShuttingDown()) {
				return; // SIGTERM: stop between files, the rest runs next time
			}
			try (var section = handle.critical()) {
				this.importer.importFile(file);
			}
		}
		handle.workCompleted(); // done: the application shuts down, exit 0
	}

}
// end::finite-job[]
