package io.rewind.apps.watch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.watch.JobWatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job of rank processes watched from its launcher: the same announcements as with threads, and one
 * JFR file holding the launcher's recording (the failure, the recovery phases) and every rank
 * process's (their checkpoints).
 */
@Tag("process")
class JobWatchProcessTest {
    @Test
    void aFailureOfARankProcessIsAnnouncedAndTheRanksRecordingsJoinTheJobs(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("job.jfr");
        JobWatch watch = new JobWatch("steps", 3, null, jfr);
        JobConfig config =
                JobWatchTest.steps(3).failures(FailureSchedule.parse("1@7", 3)).build();
        JobResult[] result = new JobResult[1];
        String err = JobWatchTest.capturingErr(() -> ProcessJob.run(config, Launch.local(1), watch), result);
        assertTrue(result[0].ok(), result[0].describeFailures() + err);
        List<RecordedEvent> events = JobWatchTest.rewindEvents(jfr);
        JobWatchTest.assertFailureWatched(err, events, 3);
        // Rank 1's first process was killed with its recording; its second wrote the lines after 7.
        assertTrue(
                JobWatchTest.named(events, "io.rewind.Checkpoint").stream()
                        .anyMatch(e -> e.getInt("rank") == 1 && e.getInt("incarnation") == 1),
                "a checkpoint event of rank 1's second process");
        for (String kept : List.of("rank-0.0.jfr", "rank-1.1.jfr", "rank-2.0.jfr")) {
            assertTrue(Files.size(dir.resolve("job.jfr.ranks").resolve(kept)) > 0, "kept as written: " + kept);
        }
    }
}
