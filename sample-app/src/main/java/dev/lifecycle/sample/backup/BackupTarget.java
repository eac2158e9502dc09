package dev.lifecycle.sample.backup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.Tier;
import dev.lifecycle.sample.SampleProperties;
import dev.lifecycle.spring.ManagedComponent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;

/**
 * The backup target's health, as an advisory component: every
 * {@code sample.backup.check-interval} it proves the target directory writable (create
 * it, write and fsync a probe file, delete it) and reports a heartbeat, or reports
 * unhealthy when the probe fails.
 *
 * <p>
 * Advisory means observed, never decisive: a dead or hung backup volume must not take the
 * event service down, so its stalls never trigger a shutdown and the shutdown never waits
 * for it. Its verdict only decides where the final backup goes ({@link #useTarget()}):
 * the target directory while healthy, the local fallback directory otherwise. The
 * engine's verdict matters even when the last probe succeeded: a probe that hangs (a
 * stuck network mount) stops the heartbeats, and after the liveness deadline
 * {@code isHealthy()} turns false, so the backup avoids a volume that would hang it.
 */
@ManagedComponent(value = BackupTarget.NAME, tier = Tier.ADVISORY, livenessDeadline = "15s")
public class BackupTarget implements ActiveComponent {

	/** The component name. */
	public static final String NAME = "backup-target";

	private static final Logger logger = LoggerFactory.getLogger(BackupTarget.class);

	private final Path target;

	private final Path fallback;

	private final Duration checkInterval;

	private volatile ComponentHandle handle;

	private volatile Boolean lastProbeOk;

	@Autowired
	public BackupTarget(SampleProperties properties) {
		this(properties.backupDir(), properties.backupFallbackDir(), properties.backup().checkInterval());
	}

	public BackupTarget(Path target, Path fallback, Duration checkInterval) {
		this.target = target.toAbsolutePath().normalize();
		this.fallback = fallback.toAbsolutePath().normalize();
		this.checkInterval = checkInterval;
	}

	@Override
	public void run(ComponentHandle handle) throws InterruptedException {
		this.handle = handle;
		logger.info("Backup target: checking {} every {} (fallback {})", this.target, this.checkInterval,
				this.fallback);
		while (!handle.isShuttingDown()) {
			if (probe()) {
				handle.reportHealthy();
			}
			else {
				handle.reportUnhealthy();
			}
			handle.awaitShutdown(this.checkInterval);
		}
	}

	/**
	 * Where the backup should go now: the target while the component is healthy and its
	 * last probe succeeded, else the fallback. Before the component runs, probes once on
	 * the caller's thread.
	 */
	public boolean useTarget() {
		ComponentHandle current = this.handle;
		Boolean probed = this.lastProbeOk;
		if (current == null || probed == null) {
			return probe();
		}
		return current.isHealthy() && probed;
	}

	/** The configured target directory. */
	public Path target() {
		return this.target;
	}

	/** The local fallback directory. */
	public Path fallback() {
		return this.fallback;
	}

	private boolean probe() {
		Path probe = this.target.resolve(".write-probe-" + ProcessHandle.current().pid());
		boolean ok;
		try {
			Files.createDirectories(this.target);
			try (FileChannel channel = FileChannel.open(probe, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
					StandardOpenOption.TRUNCATE_EXISTING)) {
				channel.write(ByteBuffer.wrap(new byte[] { 'o', 'k' }));
				channel.force(true);
			}
			Files.delete(probe);
			ok = true;
		}
		catch (IOException | SecurityException ex) {
			ok = false;
			if (!Boolean.FALSE.equals(this.lastProbeOk)) {
				logger.warn("Backup target: {} is not writable ({}); backups go to the fallback {} until it is",
						this.target, ex.toString(), this.fallback);
			}
		}
		if (ok && Boolean.FALSE.equals(this.lastProbeOk)) {
			logger.info("Backup target: {} is writable again", this.target);
		}
		this.lastProbeOk = ok;
		return ok;
	}

}
