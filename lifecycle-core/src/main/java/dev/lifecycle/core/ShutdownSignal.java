package dev.lifecycle.core;

import java.util.List;

/**
 * The process signals that start a shutdown, declared once. A host that traps signals
 * (the Spring layer does, unless {@code lifecycle.signals.trap=false}) traps exactly
 * these and treats them alike: what a signal does depends only on when it arrives,
 * {@link #arrivals()}, never on which of them it is. The manual's table of signals is
 * generated from this declaration, and no other page, Javadoc or property description
 * lists them; they link to that table instead.
 */
public enum ShutdownSignal {

	/** SIGTERM, Kubernetes' stop signal. */
	TERM(15, "the kubelet, when it stops a container (after its `preStop` hook), `docker stop`, systemd, "
			+ "`kill <pid>`"),

	/** SIGINT, the terminal's interrupt. */
	INT(2, "Ctrl-C in a terminal, `kill -INT`"),

	/** SIGHUP, the terminal's hang-up: a shutdown, not a reload. */
	HUP(1, "a closed terminal or SSH session, `kill -HUP`; it stops the service, it does not reload its "
			+ "configuration");

	private static final List<Arrival> ARRIVALS = List.of(new Arrival("the first",
			"starts the shutdown (trigger reason and component `signal`); if a shutdown is already under way "
					+ "(the pre-stop file appeared before Kubernetes' SIGTERM), it joins it: that signal is the "
					+ "first, not a second"),
			new Arrival("the first, while the application starts",
					"is held until the engine has started, then starts the shutdown; the start ends through the "
							+ "same sequence and the application's runners are not called"),
			new Arrival("a second, before the report exists",
					"halts the process at once with the `forced` [exit code](#exit-codes); the report on disk "
							+ "says `forced` " + "first (also during start-up, once the engine exists)"),
			new Arrival("any, after the report exists",
					"changes nothing: the exit with the report's code is under way"));

	private final int number;

	private final String sentBy;

	ShutdownSignal(int number, String sentBy) {
		this.number = number;
		this.sentBy = sentBy;
	}

	/**
	 * The signal's full name, as logs and the manual write it.
	 * @return e.g. {@code "SIGTERM"}
	 */
	public String signalName() {
		return "SIG" + name();
	}

	/**
	 * The signal's number on Linux; a process a signal ends untrapped exits with 128 plus
	 * it.
	 * @return e.g. 15 for SIGTERM
	 */
	public int number() {
		return this.number;
	}

	/**
	 * Who or what usually sends it.
	 * @return a short description, in the manual's Markdown
	 */
	public String sentBy() {
		return this.sentBy;
	}

	/**
	 * What a trapped signal does, by when it arrives, whichever of the signals it is.
	 * @return each arrival with its effect, in the order a shutdown meets them
	 */
	public static List<Arrival> arrivals() {
		return ARRIVALS;
	}

	/**
	 * One moment a signal can arrive at, and what it does then.
	 *
	 * @param when which signal it is and when it arrives
	 * @param effect what it does, in the manual's Markdown
	 */
	public record Arrival(String when, String effect) {

	}

}
