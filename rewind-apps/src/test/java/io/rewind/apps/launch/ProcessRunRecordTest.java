package io.rewind.apps.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rewind.apps.workloads.Stencil2D;
import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run record of a job whose ranks are processes: the launcher samples the log figures each rank
 * process reports (payload bytes and the memory the log takes), as the coordinator of an in-JVM job
 * samples its ranks' logs.
 */
@Tag("process")
class ProcessRunRecordTest {
    private static final int RANKS = 4;

    @Test
    void theLauncherRecordsTheLogsOfItsRankProcesses(@TempDir Path dir) throws Exception {
        JsonNode record = recordOfStencil(dir, RANKS, null);
        assertEquals(RANKS, record.get("ranks").asInt());
        JsonNode samples = record.get("logSamples");
        assertTrue(samples.size() >= 2, "a sample at the start and one as the programs ended: " + samples);
        double previous = -1;
        for (JsonNode s : samples) {
            assertEquals(RANKS, s.get("logBytes").size(), s.toString());
            assertEquals(RANKS, s.get("logMemoryBytes").size(), s.toString());
            assertTrue(s.get("timeMs").asDouble() >= previous, "samples in time order: " + samples);
            previous = s.get("timeMs").asDouble();
        }
        // No checkpoints, so nothing is truncated: every rank's last report (sent with its end, before
        // the launcher's last sample) shows the halos it logged.
        JsonNode last = samples.get(samples.size() - 1);
        for (int rank = 0; rank < RANKS; rank++) {
            long payload = last.get("logBytes").get(rank).asLong();
            long memory = last.get("logMemoryBytes").get(rank).asLong();
            assertTrue(payload > 0, "rank " + rank + " reported no payload: " + last);
            assertTrue(memory >= payload, "rank " + rank + ": memory below the payload it holds: " + last);
        }
    }

    @Test
    void theLauncherCountsWhatItsRankProcessesSentAndWhatARestartedOneWasReplayed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.json");
        JobConfig config = JobConfig.builder(Stencil2D.class.getName())
                .ranks(RANKS)
                .args("32", "24")
                .protocol("pessimistic")
                .checkpointEvery(0)
                .failures(FailureSchedule.parse("2@14", RANKS))
                .timeout(Duration.ofSeconds(120))
                .recordFile(file)
                .quiet()
                .build();
        JobResult r = ProcessJob.run(config, Launch.local(2));
        assertTrue(r.ok(), r.describeFailures());
        JsonNode record = new ObjectMapper().readTree(file.toFile());
        long sent = record.get("sentBytes").asLong();
        long logged = record.get("loggedBytes").asLong();
        assertTrue(sent > 0, "every rank process reports what it sent: " + sent);
        assertTrue(logged > 0, "logged " + logged + " of " + sent + " bytes sent");
        JsonNode failure = record.get("failures").get(0);
        assertEquals(2, failure.get("rank").asInt());
        // Rank 2 restarts from the start (no checkpoints): its neighbours replay the halos it had
        // received before the crash, and it is caught up when it gets back to where it died.
        assertTrue(failure.get("replayedFrames").asLong() > 0, "halos replayed to rank 2: " + failure);
        boolean replayPhase = false;
        for (JsonNode phase : record.get("recovery")) {
            replayPhase |= phase.get("rank").asInt() == 2
                    && phase.get("phase").asText().equals("replay")
                    && phase.get("endMs").asDouble() >= phase.get("startMs").asDouble();
        }
        assertTrue(replayPhase, "rank 2's recovery reaches its replay phase: " + record.get("recovery"));
    }

    @Test
    void aRankProcessHoldsItsLogReserveFromTheStart(@TempDir Path dir) throws Exception {
        long reserve = 16L << 20;
        JsonNode recorded = recordOfStencil(
                dir,
                2,
                io.rewind.ft.log.PayloadLogConfig.builder(io.rewind.ft.log.StorageBackend.OFF_HEAP)
                        .reserveBytes(reserve)
                        .build());
        assertEquals(reserve, recorded.get("logReserveBytes").asLong(), "the report draws it");
        JsonNode samples = recorded.get("logSamples");
        JsonNode last = samples.get(samples.size() - 1);
        for (int rank = 0; rank < 2; rank++) {
            long payload = last.get("logBytes").get(rank).asLong();
            long memory = last.get("logMemoryBytes").get(rank).asLong();
            assertTrue(payload > 0 && payload < reserve, "a small log: " + last);
            assertTrue(memory >= reserve, "rank " + rank + " holds its reserve of " + reserve + ": " + last);
        }
    }

    /**
     * Runs a stencil of {@code ranks} rank processes on two agents under pessimistic, with {@code log}
     * (null: the default log); its run record.
     */
    private static JsonNode recordOfStencil(Path dir, int ranks, io.rewind.ft.log.PayloadLogConfig log)
            throws Exception {
        Path file = dir.resolve("run.json");
        JobConfig.Builder config = JobConfig.builder(Stencil2D.class.getName())
                .ranks(ranks)
                .args("32", "16")
                .protocol("pessimistic")
                .timeout(Duration.ofSeconds(120))
                .recordFile(file)
                .quiet();
        if (log != null) {
            config.payloadLog(log);
        }
        JobResult r = ProcessJob.run(config.build(), Launch.local(2));
        assertTrue(r.ok(), r.describeFailures());
        return new ObjectMapper().readTree(file.toFile());
    }
}
