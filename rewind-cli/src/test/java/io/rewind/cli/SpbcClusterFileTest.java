package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clustering tool and the protocol agree: a profile of a run, clustered by {@code rewind analyze
 * cluster}, fed to {@code rewind run --protocol spbc --clusters FILE}, logs exactly the
 * point-to-point bytes the tool predicted, and a crash rolls back exactly the cluster the file gives
 * the crashed rank; the result is the failure-free one.
 */
class SpbcClusterFileTest {
    private static final String MAIN = "io.rewind.apps.workloads.Stencil3D";
    private static final List<String> ARGS = List.of("16", "24"); // the workload's small size

    private static CommandRun run(String... args) {
        return CommandRun.of(args);
    }

    private static CommandRun job(String... options) {
        List<String> a = new ArrayList<>(List.of("run", "-n", "6", "--timeout", "60s", "--no-tag-output"));
        a.addAll(List.of(options));
        a.add(MAIN);
        a.addAll(ARGS);
        return run(a.toArray(new String[0]));
    }

    /** The workload's result line (the last line it prints). */
    private static String result(CommandRun r) {
        return r.out()
                .lines()
                .filter(l -> l.startsWith("stencil3d "))
                .findFirst()
                .orElse("");
    }

    @Test
    void theRunLogsAndRollsBackWhatTheClusteringToolPredicted(@TempDir Path dir) throws IOException {
        Path profile = dir.resolve("stencil3d.profile");
        CommandRun p = run("bench", "profile", "-n", "6", "-o", profile.toString(), "stencil3d");
        assertEquals(0, p.status(), p.out() + p.err());

        Path clusters = dir.resolve("clusters.txt");
        CommandRun a =
                run("analyze", "cluster", "-i", profile.toString(), "-k", "3", "--json", "-o", clusters.toString());
        assertEquals(0, a.status(), a.out() + a.err());
        JsonNode analysis = new ObjectMapper().readTree(a.out());
        long predictedLogged = analysis.get("computed").get("loggedBytes").asLong();
        int[] clusterOf = new ObjectMapper().convertValue(analysis.get("clusterOf"), int[].class);
        assertTrue(predictedLogged > 0, a.out());

        CommandRun reference = job("--protocol", "none", "--no-record");
        assertEquals(0, reference.status(), reference.out() + reference.err());

        Path record = dir.resolve("failure-free.json");
        CommandRun free = job(
                "--protocol",
                "spbc",
                "--clusters",
                clusters.toString(),
                "--checkpoint-every",
                "0",
                "--record",
                record.toString());
        assertEquals(0, free.status(), free.out() + free.err());
        JsonNode r = new ObjectMapper().readTree(record.toFile());
        long p2pLogged =
                r.get("loggedBytes").asLong() - r.get("collectiveLoggedBytes").asLong();
        assertEquals(predictedLogged, p2pLogged, "point-to-point bytes logged against the tool's prediction");
        assertEquals(result(reference), result(free));

        int victim = 4;
        Path crashRecord = dir.resolve("crash.json");
        CommandRun crash = job(
                "--protocol",
                "spbc",
                "--clusters",
                clusters.toString(),
                "--checkpoint-every",
                "6",
                "--kill",
                victim + "@15",
                "--record",
                crashRecord.toString());
        assertEquals(0, crash.status(), crash.out() + crash.err());
        assertEquals(result(reference), result(crash), crash.out());
        JsonNode failures = new ObjectMapper().readTree(crashRecord.toFile()).get("failures");
        assertEquals(1, failures.size(), crash.out());
        Set<Integer> rolledBack = new TreeSet<>();
        failures.get(0).get("rolledBack").forEach(n -> rolledBack.add(n.asInt()));
        Set<Integer> predicted = new TreeSet<>();
        for (int rank = 0; rank < clusterOf.length; rank++) {
            if (clusterOf[rank] == clusterOf[victim]) {
                predicted.add(rank);
            }
        }
        assertEquals(predicted, rolledBack, crash.out());
        assertTrue(predicted.size() < 6, "the tool put every rank in one cluster: " + a.out());
    }
}
