package dev.lifecycle.autoconfigure.process;

import sun.misc.Signal;

/**
 * The floor for a forced exit: a JVM whose SIGTERM handler does nothing but halt with
 * 128. Prints {@code ready} once its handler is installed.
 */
final class BareHaltOnSigterm {

	private BareHaltOnSigterm() {
	}

	public static void main(String[] args) throws InterruptedException {
		Signal.handle(new Signal("TERM"), (signal) -> Runtime.getRuntime().halt(128));
		System.out.println("ready");
		System.out.flush();
		Thread.sleep(Long.MAX_VALUE);
	}

}
