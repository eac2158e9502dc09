package dev.lifecycle.sample.backup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.lifecycle.sample.store.EventStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class BackupServiceTest {

	@TempDir
	Path dir;

	@Test
	void writesToTheTargetWhileItIsWritableAndKeepsTheNewest() throws Exception {
		try (EventStore store = new EventStore(this.dir.resolve("events.db"), "NORMAL", Duration.ofSeconds(5))) {
			store.append("a", "k", 1);
			BackupTarget target = new BackupTarget(this.dir.resolve("target"), this.dir.resolve("local"),
					Duration.ofSeconds(1));
			BackupService service = new BackupService(store, target, 2);
			Path first = service.backup();
			Thread.sleep(5);
			service.backup();
			Thread.sleep(5);
			Path third = service.backup();
			assertThat(first.getParent()).isEqualTo(this.dir.resolve("target"));
			assertThat(first).doesNotExist();
			assertThat(third).exists();
			try (var files = Files.list(this.dir.resolve("target"))) {
				assertThat(files.filter((p) -> p.toString().endsWith(".db"))).hasSize(2);
			}
		}
	}

	@Test
	void fallsBackToTheLocalDirectoryWhenTheTargetIsNotWritable() throws Exception {
		Path blocker = Files.writeString(this.dir.resolve("not-a-directory"), "x");
		try (EventStore store = new EventStore(this.dir.resolve("events.db"), "NORMAL", Duration.ofSeconds(5))) {
			BackupTarget target = new BackupTarget(blocker.resolve("backups"), this.dir.resolve("local"),
					Duration.ofSeconds(1));
			assertThat(target.useTarget()).isFalse();
			Path backup = new BackupService(store, target, 5).backup();
			assertThat(backup.getParent()).isEqualTo(this.dir.resolve("local"));
			assertThat(backup).exists();
		}
	}

}
