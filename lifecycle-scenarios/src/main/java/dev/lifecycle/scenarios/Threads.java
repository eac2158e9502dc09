package dev.lifecycle.scenarios;

import java.lang.reflect.Method;

/**
 * Whether a thread is virtual, on a JDK 17 baseline that has no
 * {@code Thread.isVirtual()}.
 */
final class Threads {

	private static final Method IS_VIRTUAL = isVirtualMethod();

	private Threads() {
	}

	static boolean isVirtual(Thread thread) {
		if (IS_VIRTUAL == null) {
			return false;
		}
		try {
			return (boolean) IS_VIRTUAL.invoke(thread);
		}
		catch (ReflectiveOperationException ex) {
			return false;
		}
	}

	private static Method isVirtualMethod() {
		try {
			return Thread.class.getMethod("isVirtual");
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
	}

}
