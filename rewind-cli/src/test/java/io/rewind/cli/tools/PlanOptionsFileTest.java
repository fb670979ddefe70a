package io.rewind.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rewind.cli.CommandRun;
import io.rewind.tools.cluster.ClusterFile;
import io.rewind.tools.cluster.Clustering;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rewind plan --options-out FILE} then {@code rewind run -n N @FILE PROGRAM}: the file holds
 * the plan's choice, and the run it starts has the planned protocol, clusters, quota and loggers.
 */
class PlanOptionsFileTest {

    private static final String MAIN = "io.rewind.apps.workloads.Stencil3D";
    /** The size 'rewind bench profile ... stencil3d' runs, so the profile is this program's traffic. */
    private static final List<String> ARGS = List.of("16", "24");

    /** The whole command line in this JVM, as the launcher runs it (rank output goes to System.out). */
    private static CommandRun rewind(String... args) {
        return CommandRun.of(args);
    }

    /**
     * Six ranks on three nodes. The 16 KiB quota per rank is below the 48 KiB the busiest ranks log,
     * so some logging needs a logger; one logger of 256 KiB is allowed (a third of the nodes), which
     * fits three clusters but not one per rank (both quotas then need two loggers), with
     * {@code maxLoggerFraction} 0.34. --run equal to
     * --profile-seconds makes the prediction the profiled bytes themselves.
     */
    private static List<String> planArgs(Path profile, String maxLoggerFraction) {
        return new ArrayList<>(List.of(
                "plan",
                "-i",
                profile.toString(),
                "--ranks-per-node",
                "2",
                "--node-memory",
                "128KiB",
                "--quotas",
                "0.25,0.5",
                "--run",
                "1s",
                "--profile-seconds",
                "1",
                "--logger-memory",
                "256KiB",
                "--max-logger-fraction",
                maxLoggerFraction));
    }

    private static Path profile(Path dir) {
        Path profile = dir.resolve("stencil3d.profile");
        CommandRun p = rewind("bench", "profile", "-n", "6", "-o", profile.toString(), "stencil3d");
        assertEquals(0, p.status(), p.out() + p.err());
        return profile;
    }

    @Test
    void theOptionsFileRunsThePlannedConfiguration(@TempDir Path dir) throws IOException {
        Path profile = profile(dir);
        // A space in the folder: the cluster file's path must come back whole from the @-file.
        Path folder = Files.createDirectory(dir.resolve("planned run"));
        Path options = folder.resolve("run.args");
        List<String> args = planArgs(profile, "0.34");
        args.addAll(List.of("--options-out", options.toString(), "--json"));
        CommandRun plan = rewind(args.toArray(new String[0]));
        assertEquals(0, plan.status(), plan.out() + plan.err());
        JsonNode chosen = new ObjectMapper().readTree(plan.out()).get("chosen");
        int clusters = chosen.get("clusters").asInt();
        int loggers = chosen.get("loggers").asInt();
        long quota = (long) Math.floor(chosen.get("quotaPerRankBytes").asDouble());
        // Each log faults in the most the plan predicts a rank logs, within the rank's quota.
        long reserve = (long) Math.floor(Math.min(
                chosen.get("maxRankLogBytes").asDouble(),
                chosen.get("quotaPerRankBytes").asDouble()));
        assertTrue(clusters > 1 && clusters < 6, "the plan should pick hierarchical logging: " + plan.out());
        assertTrue(loggers >= 1, "the plan should need a logger: " + plan.out());

        Path clusterFile = Path.of(options + ".clusters");
        List<String> expected = List.of(
                "--protocol spbc",
                "--clusters \"" + clusterFile.toAbsolutePath() + "\"",
                "--log-reserve " + reserve,
                "--log-quota " + quota,
                "--loggers " + loggers,
                "--logger-memory " + 256 * 1024);
        List<String> written = Files.readAllLines(options).stream()
                .filter(l -> !l.startsWith("#"))
                .toList();
        assertEquals(expected, written);
        assertTrue(Files.readAllLines(options).getFirst().startsWith("# written by rewind plan"));
        Clustering c = ClusterFile.read(clusterFile);
        assertEquals(clusters, c.count());
        assertEquals(6, c.ranks());

        Path record = dir.resolve("run.json");
        List<String> run = new ArrayList<>(List.of(
                "run",
                "-n",
                "6",
                "@" + options,
                // The plan is for logs that pile up over the whole run: no checkpoint frees them.
                "--checkpoint-every",
                "0",
                "--timeout",
                "60s",
                "--summary",
                "--record",
                record.toString(),
                MAIN));
        run.addAll(ARGS);
        CommandRun job = rewind(run.toArray(new String[0]));
        assertEquals(0, job.status(), job.out() + job.err());
        assertTrue(
                job.err().contains("protocol spbc, 6 ranks"), job.out() + job.err()); // the summary, on standard error

        JsonNode r = new ObjectMapper().readTree(record.toFile());
        assertEquals("spbc", r.get("protocol").asText());
        JsonNode nodes = r.get("loggerNodes");
        assertEquals(loggers, nodes.get("loggers").asInt());
        assertEquals(quota, nodes.get("logQuotaBytes").asLong());
        assertEquals(256 * 1024, nodes.get("loggerCapacityBytes").asLong());
        // The run used the planned clusters: it logged the point-to-point bytes the plan predicted.
        long p2pLogged =
                r.get("loggedBytes").asLong() - r.get("collectiveLoggedBytes").asLong();
        assertEquals(chosen.get("totalLogBytes").asDouble(), p2pLogged, 0.5);
        // Ranks logging more than the quota stayed under it by dumping, and the logger had room.
        long dumps = 0;
        for (JsonNode rank : nodes.get("dumpsPerRank")) {
            dumps += rank.get("dumps").asLong();
            assertEquals(0, rank.get("dumpsDeclinedByAll").asLong(), rank.toString());
            assertTrue(rank.get("peakLogBytes").asLong() <= quota, rank.toString());
        }
        assertTrue(dumps > 0, nodes.toString());
    }

    @Test
    void aMissingFolderIsRefusedBeforeAnythingIsPlanned(@TempDir Path dir) {
        Path options = dir.resolve("no-such-folder").resolve("run.args");
        List<String> args = planArgs(dir.resolve("never-read.profile"), "0.34");
        args.addAll(List.of("--options-out", options.toString()));
        CommandRun r = rewind(args.toArray(new String[0]));
        assertEquals(2, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("the folder " + options.getParent() + " does not exist"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void noFeasibleConfigurationWritesNothing(@TempDir Path dir) throws IOException {
        Path profile = profile(dir);
        Path options = dir.resolve("run.args");
        // One cluster per rank logs everything, and no logger is allowed.
        List<String> args = planArgs(profile, "0");
        args.addAll(List.of("--cluster-counts", "6", "--options-out", options.toString()));
        CommandRun r = rewind(args.toArray(new String[0]));
        assertEquals(2, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("no configuration fits"), r.out());
        assertTrue(r.err().contains("--options-out " + options + " was not written"), r.err());
        assertFalse(Files.exists(options));
    }

    @Test
    void argumentsThatPicocliWouldSplitAreQuoted() {
        assertEquals("/tmp/a.clusters", RunOptionsFile.quote("/tmp/a.clusters"));
        assertEquals("\"/tmp/a b#c\"", RunOptionsFile.quote("/tmp/a b#c"));
        assertEquals("\"a\\\\b\\\"c\"", RunOptionsFile.quote("a\\b\"c"));
    }
}
