package io.rewind.apps.ulfm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The programs of {@link UlfmTest} as rank processes ({@code --launch local}): a killed rank's process
 * dies of SIGKILL, its peers are told, and the job ends with the failure-free checksum.
 */
@Tag("process")
class UlfmProcessTest {
    @Test
    void theShrinkingSolverLosesARankProcessAndEndsWithTheFailureFreeChecksum() {
        JobResult free =
                ProcessJob.run(UlfmTest.notify(ShrinkingSolver.class, 4, "120").build(), Launch.local(1));
        JobResult killed = ProcessJob.run(
                UlfmTest.notify(ShrinkingSolver.class, 4, "120")
                        .failures(FailureSchedule.parse("2@o300", 4))
                        .build(),
                Launch.local(1));
        assertTrue(free.ok(), free.describeFailures());
        assertTrue(killed.ok(), killed.describeFailures());
        assertNotNull(UlfmTest.checksum(free));
        assertEquals(UlfmTest.checksum(free), UlfmTest.checksum(killed));
    }

    @Test
    void theReplacingSolverReplacesARankProcessFromItsCheckpoint() {
        JobResult free =
                ProcessJob.run(UlfmTest.notify(ReplacingSolver.class, 4, "200").build(), Launch.local(1));
        JobResult killed = ProcessJob.run(
                UlfmTest.notify(ReplacingSolver.class, 4, "200")
                        .failures(FailureSchedule.parse("1@o400", 4))
                        .build(),
                Launch.local(1));
        assertTrue(free.ok(), free.describeFailures());
        assertTrue(killed.ok(), killed.describeFailures());
        assertNotNull(UlfmTest.checksum(free));
        assertEquals(UlfmTest.checksum(free), UlfmTest.checksum(killed));
    }
}
