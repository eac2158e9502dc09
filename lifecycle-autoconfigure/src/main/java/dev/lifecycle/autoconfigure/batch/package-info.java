/**
 * Spring Batch jobs at a restart: the job executions running in this process are one
 * component, stopped through the {@code JobOperator} at the drain and waited for until
 * each job's thread has returned, before the DataSource closes; what they leave
 * unfinished makes the exit code and the report say so; executions a killed predecessor
 * left {@code STARTED} are recovered at the next start so that a relaunch restarts them.
 * Loaded only when Spring Batch is on the class path.
 */
@NullMarked
package dev.lifecycle.autoconfigure.batch;

import org.jspecify.annotations.NullMarked;
