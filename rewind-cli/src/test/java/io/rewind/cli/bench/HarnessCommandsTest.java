package io.rewind.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rewind.tools.analysis.GiniIndex;
import io.rewind.tools.profile.CommProfile;
import io.rewind.tools.profile.ProfileReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The harness commands at small sizes, driven through picocli as the launcher does: the chaos
 * sample CI runs, and the shape of what overhead, recovery and profile write.
 */
class HarnessCommandsTest {

    static int run(Object command, String... args) {
        return new CommandLine(command).execute(args);
    }

    static JsonNode rows(Path file) throws Exception {
        return new ObjectMapper().readTree(file.toFile()).get("rows");
    }

    @Test
    void chaosSampleRecoversEveryRunBitForBit(@TempDir Path dir) throws Exception {
        int status = run(
                new ChaosBench(),
                "--workloads",
                "stencil3d,discovery,masterworker",
                "--protocols",
                "pessimistic,global",
                "--seeds",
                "3",
                "-n",
                "4",
                "--timeout",
                "60",
                "--out",
                dir.toString());
        assertEquals(0, status, Files.readString(dir.resolve("chaos.md")));
        JsonNode rows = rows(dir.resolve("chaos.json"));
        assertEquals(3 * 3 * 2, rows.size());
        long struck = 0;
        for (JsonNode r : rows) {
            assertTrue(r.get("outcome").asText().startsWith("ok"), r.toString());
            struck += r.get("recoveries").asLong();
        }
        assertTrue(struck >= 6, "most schedules strike: " + struck + " recoveries");
        assertTrue(Files.readString(dir.resolve("chaos.csv")).startsWith("seed,workload,protocol,kills"));
    }

    @Test
    void chaosRefusesAProtocolThatCannotRecover(@TempDir Path dir) {
        assertEquals(2, run(new ChaosBench(), "--protocols", "none", "--out", dir.toString()));
        assertEquals(2, run(new ChaosBench(), "--workloads", "nosuch", "--out", dir.toString()));
    }

    @Test
    void overheadRefusesRankCountsNothingCanRunOn(@TempDir Path dir) {
        for (String ranks : new String[] {"0", "2,x", "5000", ""}) {
            assertEquals(2, run(new OverheadBench(), "-n", ranks, "--out", dir.toString()), ranks);
        }
        assertEquals(2, run(new OverheadBench(), "--workloads", "masterworker", "-n", "1", "--out", dir.toString()));
        assertFalse(Files.exists(dir.resolve("overhead.md")), "nothing is written for refused input");
    }

    @Test
    void overheadComparesEveryProtocolWithNone(@TempDir Path dir) throws Exception {
        int status = run(
                new OverheadBench(),
                "--workloads",
                "montecarlo,bfs",
                "-n",
                "2,3",
                "--repeat",
                "1",
                "--out",
                dir.toString());
        assertEquals(0, status);
        JsonNode rows = rows(dir.resolve("overhead.json"));
        assertEquals(2 * 2 * 3, rows.size());
        for (JsonNode r : rows) {
            String p = r.get("protocol").asText();
            if (p.equals("none")) {
                assertEquals(1.0, r.get("ratio").asDouble(), 1e-12);
                assertEquals(0, r.get("checkpoints").asLong());
            } else {
                assertTrue(r.get("checkpoints").asLong() > 0, r.toString());
            }
            if (p.equals("pessimistic")) {
                assertTrue(r.get("logged_bytes").asLong() > 0, r.toString());
            } else {
                assertEquals(0, r.get("logged_bytes").asLong(), r.toString());
            }
        }
        assertTrue(Files.readString(dir.resolve("overhead.md")).contains("| montecarlo | 2 | pessimistic |"));
    }

    @Test
    void recoveryRollsBackOneRankLocallyAndAllGlobally(@TempDir Path dir) throws Exception {
        int status = run(
                new RecoveryBench(), "--workloads", "stencil3d", "-n", "3", "--repeat", "1", "--out", dir.toString());
        assertEquals(0, status);
        JsonNode rows = rows(dir.resolve("recovery.json"));
        assertEquals(2, rows.size());
        for (JsonNode r : rows) {
            boolean local = r.get("protocol").asText().equals("pessimistic");
            assertEquals(local ? 1 : 3, r.get("rolled_back").asInt(), r.toString());
            assertEquals(1, r.get("line").asInt(), "the line at 40% is restored: " + r);
            assertEquals(18, r.get("kill_at").asInt());
            assertTrue(r.get("rework_ms").asDouble() > 0, r.toString());
            if (local) {
                assertTrue(r.get("replayed").asLong() > 0, r.toString());
            }
        }
    }

    @Test
    void profileOfTheAmrWorkloadAt64RanksIsUneven(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("amr.profile");
        int status = run(new ProfileBench(), "-n", "64", "-o", file.toString(), "amr", "12", "8", "8", "2", "3", "1");
        assertEquals(0, status);
        CommProfile p = ProfileReader.read(file);
        assertEquals(64, p.ranks());
        double gini = GiniIndex.of(p.p2p().bytesSent());
        assertTrue(gini >= 0.3, "MiniAMR-like communication is imbalanced: Gini " + gini);
        assertTrue(p.collective().totalMessages() > 0, "the allReduce of every step is profiled apart");
        assertTrue(p.durationSeconds() > 0);
    }

    @Test
    void profileOfABalancedWorkloadIsEven(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("cg.profile");
        assertEquals(0, run(new ProfileBench(), "-n", "4", "-o", file.toString(), "cg"));
        CommProfile p = ProfileReader.read(file);
        double gini = GiniIndex.of(p.p2p().bytesSent());
        // As in NPB CG the diagonal ranks of a square grid are their own transpose partners and send
        // one message less per iteration than the others; nothing else differs between ranks.
        assertTrue(gini < 0.2, "NPB-CG-like communication is nearly balanced: Gini " + gini);
    }
}
