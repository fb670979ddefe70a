package io.rewind.apps.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.apps.random.RandomSpmd;
import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.template.TemplateProtocol;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A protocol outside the registry, given to a job directly: the runtime carries out its plan (every
 * rank from the beginning) without knowing it, and the program ends as it does without failures.
 */
@Tag("oracle")
class TemplateProtocolTest {
    @Test
    void theTemplateRecoversARandomProgramByRestartingEveryRank() {
        ProtocolDescriptor template = TemplateProtocol.descriptor();
        JobConfig job = JobConfig.builder(RandomSpmd.class.getName())
                .ranks(4)
                .args("17", "30")
                .timeout(Duration.ofSeconds(60))
                .quiet()
                .build();
        RecoveryCheck check = RecoveryCheck.of(job);
        int struck = 0;
        for (FailureSchedule s : check.schedules(5, 3)) {
            RecoveryCheck.Verdict v = check.run(template, 0, s);
            assertTrue(v.ok(), v.describe());
            struck += v.struck();
            for (var f : v.result().report().failures()) {
                assertEquals(4, f.rollbackSet(), v.describe());
            }
        }
        // The program polls, so a kill drawn late may find a run that ended before it; not all of them.
        assertTrue(struck > 0, "no kill struck");
    }
}
