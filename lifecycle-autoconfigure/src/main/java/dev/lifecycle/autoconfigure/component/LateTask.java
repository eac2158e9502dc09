package dev.lifecycle.autoconfigure.component;

/**
 * Runs a task that an executor, after its turn in the shutdown, hands back to the thread
 * that submitted it: before the submission returns, as a caller-runs policy does, but on
 * a thread of its own, so that the stop of the submitting thread never interrupts it. The
 * submitter may be a request the web server's stop cut, whose pool interrupted it: the
 * task (the e-mail that request sends) finishes whole all the same. The submitter waits
 * for it whatever interrupts it, keeps its own interrupt for after, and gets what the
 * task threw, as if it had run the task itself.
 */
final class LateTask {

	private LateTask() {
	}

	static void run(Runnable task) {
		Thread caller = Thread.currentThread();
		Throwable[] thrown = new Throwable[1];
		Thread thread = new Thread(() -> {
			try {
				task.run();
			}
			catch (Throwable ex) {
				thrown[0] = ex;
			}
		}, caller.getName() + "-late-task");
		thread.setDaemon(caller.isDaemon());
		thread.start();
		boolean interrupted = false;
		while (thread.isAlive()) {
			try {
				thread.join();
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			caller.interrupt();
		}
		// The join orders the task's writes before these reads.
		if (thrown[0] instanceof RuntimeException ex) {
			throw ex;
		}
		if (thrown[0] instanceof Error error) {
			throw error;
		}
	}

}
