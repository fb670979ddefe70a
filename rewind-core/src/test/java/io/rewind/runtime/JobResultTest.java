package io.rewind.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The failures of a job as an error message shows them. */
class JobResultTest {
    private static JobResult of(String abortReason, RankOutcome... ranks) {
        return new JobResult(1, List.of(ranks), List.of(), Duration.ZERO, abortReason, null);
    }

    @Test
    void theSameFailureOnManyRanksIsOneLineNamingThemWithOneShortTrace() {
        List<RankOutcome> ranks = new java.util.ArrayList<>();
        for (int r = 0; r < 6; r++) {
            Throwable boom = new IllegalStateException("boom");
            ranks.add(
                    r == 4
                            ? new RankOutcome(r, RankOutcome.Status.COMPLETED, "", null)
                            : new RankOutcome(r, RankOutcome.Status.FAILED, boom.toString(), boom));
        }
        String d = of("rank 0 failed: boom", ranks.toArray(new RankOutcome[0])).describeFailures();
        List<String> lines = d.lines().toList();
        assertEquals("rank 0 failed: boom", lines.get(0));
        assertEquals("ranks 0-3,5 FAILED: java.lang.IllegalStateException: boom", lines.get(1));
        long frames = lines.stream().filter(l -> l.startsWith("\tat ")).count();
        assertTrue(frames >= 1 && frames <= 5, d);
        assertEquals(
                1,
                lines.stream().filter(l -> l.contains("IllegalStateException")).count(),
                d);
    }

    @Test
    void differentFailuresKeepALineEach() {
        String d = of(
                        null,
                        new RankOutcome(0, RankOutcome.Status.ABORTED, "job aborted", null),
                        new RankOutcome(1, RankOutcome.Status.FAILED, "java.lang.Error: x", null),
                        new RankOutcome(2, RankOutcome.Status.ABORTED, "job aborted", null))
                .describeFailures();
        assertEquals("ranks 0,2 ABORTED: job aborted\nrank 1 FAILED: java.lang.Error: x\n", d);
    }

    @Test
    void ranksAreWrittenAsRuns() {
        assertEquals("0-2,4,6-7", JobResult.ranges(new int[] {0, 1, 2, 4, 6, 7}));
        assertEquals("3", JobResult.ranges(new int[] {3}));
    }
}
