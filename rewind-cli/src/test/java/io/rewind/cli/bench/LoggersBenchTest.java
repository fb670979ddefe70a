package io.rewind.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rewind bench loggers} at a tiny size: one workload, one logger, one pair per row. */
class LoggersBenchTest {

    @Test
    void everyRankThatLogsDumpsAndStaysUnderTheQuota(@TempDir Path dir) throws Exception {
        int status = HarnessCommandsTest.run(
                new LoggersBench(),
                "--workloads",
                "stencil3d",
                "-n",
                "4",
                "--loggers",
                "1",
                "--clusters",
                "2",
                "--repeat",
                "1",
                "--out",
                dir.toString());
        assertEquals(0, status);
        JsonNode rows = HarnessCommandsTest.rows(dir.resolve("loggers.json"));
        assertEquals(2, rows.size(), rows.toString());
        assertEquals("none", rows.get(0).get("clustering").asText());
        assertEquals("pessimistic", rows.get(0).get("protocol").asText());
        assertEquals("clustered", rows.get(1).get("clustering").asText());
        assertEquals("spbc", rows.get(1).get("protocol").asText());
        for (JsonNode r : rows) {
            assertEquals(1, r.get("loggers").asInt(), r.toString());
            assertEquals(1, r.get("pairs").asInt(), r.toString());
            int logging = r.get("logging_ranks").asInt();
            assertTrue(logging >= 2 && logging <= 4, r.toString());
            // The default quota is a quarter of the smallest log (of those that are not a few collective
            // calls): every such rank has to dump.
            assertTrue(r.get("ranks_dumped").asInt() >= logging, r.toString());
            assertTrue(r.get("dumps").asLong() >= logging, r.toString());
            assertTrue(r.get("dumped_MiB").asDouble() > 0, r.toString());
            long quota = r.get("quota_bytes").asLong();
            long peak = r.get("peak_log_bytes").asLong();
            // The log reached the dump threshold (3/4 of the quota) and never went over the quota.
            assertTrue(peak >= quota * 3 / 4 && peak <= quota, r.toString());
            double median = r.get("ratio_median").asDouble();
            assertTrue(median > 0.2 && median < 5, r.toString());
            assertTrue(r.get("ratio_p25").asDouble() <= median
                    && median <= r.get("ratio_p75").asDouble());
        }
        // Under pessimistic logging every rank of the stencil logs its halos.
        assertEquals(4, rows.get(0).get("logging_ranks").asInt());
        // Two clusters: the min-cut leaves some channels unlogged, so less is dumped than on every channel.
        assertTrue(
                rows.get(1).get("dumped_MiB").asDouble()
                        < rows.get(0).get("dumped_MiB").asDouble(),
                rows.toString());
        String md = Files.readString(dir.resolve("loggers.md"));
        assertTrue(md.contains("| stencil3d | 4 | none | pessimistic | 1 | 1 |"), md);
        assertTrue(md.contains("| stencil3d | 4 | clustered | spbc | 1 | 1 |"), md);
        assertTrue(Files.exists(dir.resolve("cluster-files").resolve("stencil3d-4-k2.clusters")));
    }

    @Test
    void aFixedQuotaIsUsedAsGivenAndNonsenseIsRefused(@TempDir Path dir) throws Exception {
        assertEquals(2, HarnessCommandsTest.run(new LoggersBench(), "--clustering", "some", "--out", dir.toString()));
        assertEquals(2, HarnessCommandsTest.run(new LoggersBench(), "--loggers", "0", "--out", dir.toString()));
        int status = HarnessCommandsTest.run(
                new LoggersBench(),
                "--workloads",
                "stencil3d",
                "-n",
                "2",
                "--loggers",
                "2",
                "--clustering",
                "clustered",
                "--blocks",
                "--quota",
                "8KiB",
                "--repeat",
                "1",
                "--out",
                dir.toString());
        assertEquals(0, status);
        JsonNode row = HarnessCommandsTest.rows(dir.resolve("loggers.json")).get(0);
        assertEquals(8192, row.get("quota_bytes").asLong());
        assertEquals(2, row.get("loggers").asInt());
        assertEquals(2, row.get("ranks_dumped").asInt(), row.toString());
    }
}
