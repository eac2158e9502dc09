/**
 * The project's own test kit (not published):
 * {@link dev.lifecycle.testfixtures.ChildJvm}, the one harness for the real JVMs the
 * process tests run, launched as a {@link dev.lifecycle.testfixtures.JvmLaunch} says and
 * kept by the JUnit extension {@link dev.lifecycle.testfixtures.ChildJvms}; and the UTF-8
 * gRPC marshaller of the tests' gRPC services. Nothing here is null unless marked
 * {@code @Nullable}.
 */
@NullMarked
package dev.lifecycle.testfixtures;

import org.jspecify.annotations.NullMarked;
