package io.rewind.ft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class EventLoggerTest {
    @Test
    void unsuccessfulPollsAreStoredAsRunsAndStillReplayOneByOne() {
        EventLogger log = new EventLogger(2);
        for (long i = 0; i < 1000; i++) {
            log.recordPoll(1, i, new long[0]);
        }
        log.recordPoll(1, 1000, new long[] {2, 7, 9});
        for (long i = 1001; i < 1500; i++) {
            log.recordPoll(1, i, new long[0]);
        }
        assertEquals(3, log.events(), "two runs and one outcome");
        for (long i = 0; i < 1500; i++) {
            long[] expected = i == 1000 ? new long[] {2, 7, 9} : new long[0];
            assertArrayEquals(expected, log.poll(1, i), "poll " + i);
        }
        assertNull(log.poll(1, 1500), "nothing recorded yet");
        assertNull(log.poll(0, 0), "ranks are separate");
    }

    @Test
    void runsRecordedOutOfOrderMergeAndRecordingAgainChangesNothing() {
        EventLogger log = new EventLogger(1);
        log.recordPoll(0, 5, new long[0]);
        log.recordPoll(0, 3, new long[0]);
        log.recordPoll(0, 4, new long[0]);
        long events = log.events();
        log.recordPoll(0, 4, new long[0]);
        log.recordPoll(0, 3, new long[0]);
        assertEquals(events, log.events());
        for (long i = 3; i <= 5; i++) {
            assertArrayEquals(new long[0], log.poll(0, i));
        }
        assertNull(log.poll(0, 2));
        assertNull(log.poll(0, 6));
    }
}
