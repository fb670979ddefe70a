package io.rewind.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rewind.testprograms.EnginePrograms;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunRecordWriterTest {

    /**
     * In-JVM ranks under the pessimistic protocol, logging every message (1 MiB per rank among them) and
     * never truncating (no checkpoints): the last sample, taken once every program ended and before any
     * log is released, shows each rank's log with its payload and the memory it takes.
     */
    @Test
    void aThreadsJobSamplesPayloadAndMemoryOfEveryRanksLog(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.json");
        JobResult r = Job.run(JobConfig.builder(EnginePrograms.PointToPoint.class.getName())
                .ranks(3)
                .protocol("pessimistic")
                .timeout(Duration.ofSeconds(60))
                .recordFile(file)
                .quiet()
                .build());
        assertTrue(r.ok(), r.describeFailures());
        JsonNode record = new ObjectMapper().readTree(file.toFile());
        assertEquals(1, record.get("version").asInt());
        JsonNode samples = record.get("logSamples");
        assertTrue(samples.size() >= 2, "a sample at the start and one at the end: " + samples);
        for (JsonNode s : samples) {
            assertEquals(3, s.get("logBytes").size(), s.toString());
            assertEquals(3, s.get("logMemoryBytes").size(), s.toString());
        }
        JsonNode last = samples.get(samples.size() - 1);
        for (int rank = 0; rank < 3; rank++) {
            long payload = last.get("logBytes").get(rank).asLong();
            long memory = last.get("logMemoryBytes").get(rank).asLong();
            assertTrue(payload >= 1 << 20, "rank " + rank + " logged its 1 MiB message: " + last);
            assertTrue(memory >= payload, "rank " + rank + ": memory below the payload it holds: " + last);
        }
    }

    @Test
    void aSampleNeedsOneFigureOfEachKindPerRank() {
        RunRecordWriter w =
                new RunRecordWriter(JobConfig.builder("Main").ranks(2).quiet().build(), 0);
        w.sample(1, new long[] {1, 2}, new long[] {3, 4});
        assertThrows(IllegalArgumentException.class, () -> w.sample(2, new long[] {1, 2}, new long[] {3}));
    }
}
