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
import java.util.ArrayList;
import java.util.List;
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
        assertEquals(2 * 2 * 4, rows.size());
        for (JsonNode r : rows) {
            String p = r.get("protocol").asText();
            if (p.equals("none")) {
                assertEquals(1.0, r.get("ratio").asDouble(), 1e-12);
                assertEquals(0, r.get("checkpoints").asLong());
            } else {
                assertTrue(r.get("checkpoints").asLong() > 0, r.toString());
            }
            if (p.equals("pessimistic") || p.equals("spbc")) {
                assertTrue(r.get("logged_bytes").asLong() > 0, r.toString());
            } else {
                assertEquals(0, r.get("logged_bytes").asLong(), r.toString());
            }
        }
        assertTrue(Files.readString(dir.resolve("overhead.md")).contains("| montecarlo | 2 | pessimistic |"));
    }

    /** The paired overhead bench on stencil3d, 4 ranks, spbc in 2 clusters, one run: its rows. */
    private static JsonNode pairedStencilOnFourRanks(Path dir, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "--workloads",
                "stencil3d",
                "--protocols",
                "spbc",
                "--clusters",
                "2",
                "-n",
                "4",
                "--checkpoints",
                "0",
                "--repeat",
                "1",
                "--paired",
                "--out",
                dir.toString()));
        args.addAll(List.of(more));
        assertEquals(0, run(new OverheadBench(), args.toArray(String[]::new)));
        return rows(dir.resolve("overhead-paired.json"));
    }

    @Test
    void overheadPairedTakesTurnsIterationByIteration(@TempDir Path dir) throws Exception {
        JsonNode rows = pairedStencilOnFourRanks(dir);
        assertEquals(2, rows.size());
        JsonNode none = rows.get(0);
        JsonNode spbc = rows.get(1);
        assertEquals("none", none.get("protocol").asText());
        assertEquals(1.0, none.get("ratio_median").asDouble(), 1e-12);
        assertEquals("2", spbc.get("clusters").asText());
        // 24 iterations: the first runs before the jobs take turns, the other 23 are paired.
        assertEquals(23, spbc.get("paired_iterations").asInt());
        double ratio = spbc.get("ratio_median").asDouble();
        assertTrue(ratio > 0.2 && ratio < 5, spbc.toString());
        assertTrue(spbc.get("ratio_p25").asDouble() <= ratio
                && ratio <= spbc.get("ratio_p75").asDouble());
        // Two blocks of two ranks: the halo between ranks 1 and 2 crosses the clusters, the rest does not.
        double share = spbc.get("logged_share").asDouble();
        assertTrue(share > 0.1 && share < 0.9, spbc.toString());
        assertEquals(0, spbc.get("checkpoints").asLong());

        // Every paired iteration is written out beside none's, and its ratios give the median reported.
        List<String> lines = Files.readAllLines(dir.resolve("overhead-paired-iterations.csv"));
        assertEquals("workload,ranks,variant,run,iteration,seconds,none_seconds", lines.get(0));
        List<Double> spbcRatios = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            assertEquals("stencil3d", f[0]);
            assertEquals("4", f[1]);
            assertEquals("1", f[3]);
            double seconds = Double.parseDouble(f[5]);
            double noneSeconds = Double.parseDouble(f[6]);
            assertTrue(seconds > 0 && noneSeconds > 0, line);
            if (f[2].equals("none")) {
                assertEquals(noneSeconds, seconds, 0.0, line);
            } else {
                assertEquals("spbc", f[2]);
                spbcRatios.add(seconds / noneSeconds);
            }
        }
        assertEquals(2 * 23, lines.size() - 1);
        spbcRatios.sort(null);
        assertEquals(23, spbcRatios.size());
        // Rounded to nanoseconds in the file: the median agrees to well within a part in a thousand.
        assertEquals(ratio, spbcRatios.get(11), 1e-3 * ratio);
    }

    @Test
    void overheadPairedRunsTheReservedLogAndAControlOfNoneBesideTheOthersAfterAWarmUp(@TempDir Path dir)
            throws Exception {
        JsonNode rows = pairedStencilOnFourRanks(dir, "--control", "--log-reserve", "both", "--warm-up", "1");
        assertEquals(4, rows.size());
        assertEquals("none", rows.get(0).get("protocol").asText());
        JsonNode plain = rows.get(1);
        JsonNode reserved = rows.get(2);
        JsonNode control = rows.get(3);
        assertEquals("spbc", plain.get("protocol").asText());
        assertEquals("spbc (reserved)", reserved.get("protocol").asText());
        assertEquals("none (control)", control.get("protocol").asText());
        // The same program logs the same bytes with or without a reserve; the reserve covers its log.
        assertEquals(
                plain.get("logged_bytes").asLong(), reserved.get("logged_bytes").asLong());
        assertEquals(0, plain.get("log_reserve_bytes").asLong());
        assertTrue(reserved.get("log_reserve_bytes").asLong() > 0, reserved.toString());
        assertEquals(0, control.get("logged_bytes").asLong());
        assertEquals(23, control.get("paired_iterations").asInt());
        assertEquals(1, control.get("runs").asInt(), "the warm-up run is not counted");
        double ratio = control.get("ratio_median").asDouble();
        assertTrue(ratio > 0.2 && ratio < 5, control.toString());
    }

    @Test
    void overheadPairedRunsEachLoggingProtocolAgainWithALogThatKeepsNothing(@TempDir Path dir) throws Exception {
        JsonNode rows = pairedStencilOnFourRanks(dir, "--dummy-log");
        assertEquals(3, rows.size());
        JsonNode plain = rows.get(1);
        JsonNode dummy = rows.get(2);
        assertEquals("spbc", plain.get("protocol").asText());
        assertEquals("spbc (dummy log)", dummy.get("protocol").asText());
        assertEquals(23, dummy.get("paired_iterations").asInt());
        assertEquals(0, dummy.get("log_reserve_bytes").asLong());
        // The same channels cross the clusters; only where their payloads go differs.
        assertEquals(
                plain.get("logged_share").asDouble(), dummy.get("logged_share").asDouble(), 1e-12);
        double ratio = dummy.get("ratio_median").asDouble();
        assertTrue(ratio > 0.2 && ratio < 5, dummy.toString());
    }

    @Test
    void overheadMeasuresALogReserveForEveryRankCount(@TempDir Path dir) throws Exception {
        int status = run(
                new OverheadBench(),
                "--workloads",
                "stencil3d",
                "--protocols",
                "spbc",
                "--clusters",
                "2",
                "-n",
                "2,4",
                "--checkpoints",
                "0",
                "--repeat",
                "1",
                "--log-reserve",
                "measured",
                "--out",
                dir.toString());
        assertEquals(0, status);
        List<String> variants = new ArrayList<>();
        for (JsonNode r : rows(dir.resolve("overhead.json"))) {
            variants.add(r.get("ranks").asInt() + " " + r.get("protocol").asText());
        }
        assertEquals(List.of("2 none", "2 spbc (reserved)", "4 none", "4 spbc (reserved)"), variants);
    }

    @Test
    void overheadRefusesAnUnknownReserveAndAControlOrWarmUpWithoutPairs(@TempDir Path dir) {
        assertEquals(2, run(new OverheadBench(), "--log-reserve", "some", "--out", dir.toString()));
        assertEquals(2, run(new OverheadBench(), "--control", "--out", dir.toString()));
        assertEquals(2, run(new OverheadBench(), "--warm-up", "2", "--out", dir.toString()));
        assertEquals(2, run(new OverheadBench(), "--paired", "--warm-up", "-1", "--out", dir.toString()));
        assertFalse(Files.exists(dir.resolve("overhead.md")), "nothing is written for refused input");
    }

    @Test
    void recoveryRollsBackOneRankLocallyAClusterUnderSpbcAndAllGlobally(@TempDir Path dir) throws Exception {
        int status = run(
                new RecoveryBench(),
                "--workloads",
                "stencil3d",
                "-n",
                "4",
                "--clusters",
                "2,8,N",
                "--repeat",
                "1",
                "--out",
                dir.toString());
        assertEquals(0, status);
        JsonNode rows = rows(dir.resolve("recovery.json"));
        // pessimistic, global, spbc K=2 and K=4 (8 clusters of 4 ranks are left out)
        assertEquals(4, rows.size());
        for (JsonNode r : rows) {
            int expected =
                    switch (r.get("protocol").asText()) {
                        case "pessimistic", "spbc K=4" -> 1;
                        case "spbc K=2" -> 2; // ranks 2 and 3, the block of the killed rank 3
                        case "global" -> 4;
                        default -> throw new AssertionError(r.toString());
                    };
            assertEquals(expected, r.get("rolled_back").asInt(), r.toString());
            assertEquals(1, r.get("line").asInt(), "the line at 40% is restored: " + r);
            assertEquals(18, r.get("kill_at").asInt());
            assertTrue(r.get("rework_ms").asDouble() > 0, r.toString());
            // Both sides of the ratio come from the point timestamps of the rolled-back ranks.
            assertTrue(r.get("cluster_rework_ms").asDouble() > 0, r.toString());
            assertTrue(r.get("span_failure_free_ms").asDouble() > 0, r.toString());
            assertTrue(r.get("rework_ratio").asDouble() > 0, r.toString());
            if (expected < 4) {
                assertTrue(r.get("replayed").asLong() > 0, r.toString());
            }
            // Whatever waited in the restarted rank is at most what was replayed to it and its own.
            assertTrue(r.get("held_at_most").asLong() >= 0, r.toString());
            assertTrue(r.get("held_at_most").asLong() <= r.get("replayed").asLong() + 64, r.toString());
        }
    }

    @Test
    void clustersRunsEveryClusteringUnderSpbcBesideThePrediction(@TempDir Path dir) throws Exception {
        int status = run(
                new ClustersBench(),
                "--workloads",
                "stencil3d",
                "-n",
                "8",
                "-k",
                "2,N",
                "--size",
                "small",
                "--out",
                dir.toString());
        assertEquals(0, status);
        JsonNode rows = rows(dir.resolve("clusters.json"));
        assertTrue(rows.size() >= 2 && rows.size() <= 3, rows.toString());
        JsonNode two = rows.get(0);
        JsonNode each = rows.get(rows.size() - 1);
        assertEquals(2, two.get("clusters").asInt());
        assertEquals(8, each.get("clusters").asInt());
        assertEquals("min-cut = balanced", each.get("variant").asText(), "one rank per cluster: one clustering");
        // One rank per cluster logs every message; two clusters of the 1-D decomposition only the cut halo.
        assertTrue(each.get("logged_share").asDouble() > 0.95, each.toString());
        assertTrue(two.get("logged_share").asDouble() < 0.3, two.toString());
        for (JsonNode r : rows) {
            // The tool's prediction counts point-to-point bytes; the run adds collectives logged per call.
            long measured = r.get("max_rank_logged_bytes").asLong();
            long predicted = r.get("predicted_max_log_bytes").asLong();
            long collectives = r.get("collective_logged_bytes").asLong();
            assertTrue(measured >= predicted && measured <= predicted + collectives, r.toString());
            assertTrue(r.get("log_max_MBps").asDouble() >= r.get("log_avg_MBps").asDouble(), r.toString());
        }
        assertTrue(Files.exists(dir.resolve("cluster-files").resolve("stencil3d-8-k2-mincut.clusters")));
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
