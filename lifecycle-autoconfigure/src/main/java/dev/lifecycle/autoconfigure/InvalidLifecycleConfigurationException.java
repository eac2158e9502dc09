package dev.lifecycle.autoconfigure;

/**
 * Thrown when Lifecycle's configuration cannot work: an invalid property value, an
 * invalid combination of component options, a component name that is used twice or that
 * names nothing. It fails the application's start, and its failure analysis names the
 * setting at fault and says how to fix it.
 */
public final class InvalidLifecycleConfigurationException extends RuntimeException {

	private final String setting;

	private final String problem;

	private final String action;

	/**
	 * Creates an exception for one invalid setting.
	 * @param setting the property (e.g. {@code lifecycle.drain-delay}) or annotation
	 * attribute at fault
	 * @param problem what is wrong with it, phrased to follow the setting's name
	 * @param action how to fix it
	 */
	public InvalidLifecycleConfigurationException(String setting, String problem, String action) {
		super("Invalid Lifecycle configuration: '" + setting + "' " + problem);
		this.setting = setting;
		this.problem = problem;
		this.action = action;
	}

	/** The property or annotation attribute at fault. */
	public String getSetting() {
		return this.setting;
	}

	/** What is wrong, phrased to follow the setting's name. */
	public String getProblem() {
		return this.problem;
	}

	/** How to fix it. */
	public String getAction() {
		return this.action;
	}

}
