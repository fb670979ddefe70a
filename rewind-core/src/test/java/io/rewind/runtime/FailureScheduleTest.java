package io.rewind.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The kill syntax of {@code --kill}: every form, and the errors a user meets. */
class FailureScheduleTest {

    private static List<FailureSchedule.Kill> kills(String spec) {
        return FailureSchedule.parse(spec, 4).kills();
    }

    @Test
    void everyFormOfAKill() {
        assertEquals(
                List.of(
                        new FailureSchedule.Kill(2, FailureSchedule.Trigger.ITERATION, 50),
                        new FailureSchedule.Kill(3, FailureSchedule.Trigger.CHECKPOINT, 2),
                        new FailureSchedule.Kill(1, FailureSchedule.Trigger.OPERATION, 300)),
                kills("2@50, 3@c2,1@o300"));
    }

    @Test
    void aTimeIsMillisecondsOrADurationWithItsUnit() {
        for (String[] c : new String[][] {
            {"t1500", "1500"}, {"t300ms", "300"}, {"t2s", "2000"}, {"t1.5s", "1500"}, {"t1m", "60000"}, {"t0", "0"}
        }) {
            FailureSchedule.Kill k = kills("0@" + c[0]).getFirst();
            assertEquals(FailureSchedule.Trigger.TIME, k.trigger(), c[0]);
            assertEquals(Long.parseLong(c[1]), k.value(), c[0]);
        }
    }

    @Test
    void badKillsAreOneClearLine() {
        for (String bad : new String[] {"2", "@5", "2@", "x@5", "2@tsoon", "2@t-1s", "2@0", "9@5"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> kills(bad), bad);
            assertTrue(!e.getMessage().contains("\n") && e.getMessage().length() < 120, e.getMessage());
        }
    }
}
