package dev.lifecycle.scale.app;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Pre-stop latency probe for applications in other JVMs (run-all.sh item 4, fresh JVMs),
 * run with {@code --harness=probe --harness.settle-ms=100 port:file [port:file ...]}: for
 * each target, one after another, takes one {@link PrestopMeasurement} and prints "port
 * latency_ms status polls" ({@code port NaN not-ready 0} when readiness never answered
 * 200 within 180 s).
 */
final class PrestopProbe {

	private PrestopProbe() {
	}

	static void run(String[] args) throws Exception {
		long settleMillis = 100;
		PrestopMeasurement measurement = null;
		for (String arg : args) {
			if (arg.startsWith("--harness.settle-ms=")) {
				settleMillis = Long.parseLong(arg.substring(arg.indexOf('=') + 1));
			}
			else if (!arg.startsWith("--")) {
				if (measurement == null) {
					measurement = new PrestopMeasurement(settleMillis);
				}
				int colon = arg.indexOf(':');
				int port = Integer.parseInt(arg.substring(0, colon));
				PrestopMeasurement.Sample sample = measurement.measure(port, Path.of(arg.substring(colon + 1)),
						Duration.ofSeconds(180));
				System.out.println(port + " " + ((sample != null) ? sample.line() : "NaN not-ready 0"));
			}
		}
	}

}
