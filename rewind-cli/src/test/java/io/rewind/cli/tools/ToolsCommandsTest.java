package io.rewind.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rewind.tools.cluster.ClusterFile;
import io.rewind.tools.cluster.Clustering;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Drives the tools commands through picocli exactly as the launcher does. */
class ToolsCommandsTest {

    record Result(int status, String out, String err) {}

    static Result run(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(command).setCaseInsensitiveEnumValuesAllowed(true);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int status = cl.execute(args);
        return new Result(status, out.toString(), err.toString());
    }

    /** Two cliques {0,1,2} and {3,4,5} joined by one light pair. */
    static Path cliqueProfile(Path dir) throws Exception {
        StringBuilder p = new StringBuilder("rewind-profile 1\nranks 6\n");
        for (int g = 0; g < 2; g++) {
            for (int i = 0; i < 3; i++) {
                p.append("rank-time ").append(g * 3 + i).append(" 10.0\n");
                for (int j = 0; j < 3; j++) {
                    if (i != j) {
                        p.append("p2p ")
                                .append(g * 3 + i)
                                .append(' ')
                                .append(g * 3 + j)
                                .append(" 1000 10\n");
                    }
                }
            }
        }
        p.append("p2p 2 3 10 1\np2p 3 2 10 1\np2p 5 5 99 1\n");
        return Files.writeString(dir.resolve("cliques.profile"), p.toString());
    }

    @Test
    void analyzeLoadPrintsGiniAndNotesSelfSends(@TempDir Path dir) throws Exception {
        Result r = run(new AnalyzeCommand(), "load", "-i", cliqueProfile(dir).toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("note: 1 rank(s) sent 99 point-to-point bytes to themselves"), r.out());
        assertTrue(r.out().contains("ranks 6, channels 14"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("sent") && l.contains("0.001")), r.out());
    }

    @Test
    void analyzeClusterFindsTheCliquesAndWritesAClusterFile(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("c.clusters");
        Result r = run(
                new AnalyzeCommand(),
                "cluster",
                "-i",
                cliqueProfile(dir).toString(),
                "-k",
                "2",
                "-o",
                out.toString(),
                "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertEquals(20, doc.path("computed").path("loggedBytes").asLong());
        assertEquals(0.5, doc.path("computed").path("restartFraction").asDouble(), 1e-12);
        Clustering c = ClusterFile.read(out);
        assertEquals(c.clusterOf()[0], c.clusterOf()[2]);
        assertTrue(c.clusterOf()[0] != c.clusterOf()[3]);
        Result load =
                run(new AnalyzeCommand(), "load", "-i", cliqueProfile(dir).toString(), "--clustering", out.toString());
        assertTrue(load.out().contains("coverage 0.998"), load.out());
    }

    @Test
    void analyzeMcmlTable(@TempDir Path dir) throws Exception {
        Result r = run(
                new AnalyzeCommand(),
                "mcml",
                "-i",
                cliqueProfile(dir).toString(),
                "--theta",
                "50,100",
                "--strategy",
                "heaviest");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("largest per-rank log under full logging 1.96 KiB"), r.out());
        // theta 100: nothing is switched off, every failure restarts one rank of six.
        assertTrue(
                r.out()
                        .lines()
                        .anyMatch(l -> l.matches(
                                "heaviest\\s+100\\s+1\\.96 KiB\\s+0\\s+0\\.00\\s+16\\.67\\s+0\\.00\\s+1\\s+all")),
                r.out());
    }

    @Test
    void badInputGivesOneLineErrorWithTheLineNumber(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.csv"), "0,1,2\n1,0\n2,2,0\n");
        Result r = run(new AnalyzeCommand(), "load", "-i", bad.toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("bad.csv:2: row has 2 cells, expected 3 (ragged row)"), r.err());
        assertTrue(!r.err().contains("Exception"), r.err());
    }

    @Test
    void modelReproducesThePapersHeadline() throws Exception {
        Result r = run(new ModelCommand(), "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        JsonNode byOmega = doc.path("byOmega");
        assertEquals(24.5, byOmega.get(0).path("timeReductionPercent").asDouble(), 1.0);
        assertEquals(2.7, byOmega.get(4).path("timeReductionPercent").asDouble(), 1.0);
        assertEquals(15.9, byOmega.get(0).path("energyReductionPercent").asDouble(), 1.0);
        assertEquals(0.4, byOmega.get(4).path("energyReductionPercent").asDouble(), 1.0);
        Result text = run(new ModelCommand(), "--sockets", "8000", "--omega", "0.3", "--sweep");
        assertTrue(text.out().contains("at 8000 sockets"), text.out());
        assertTrue(text.out().contains("512000"), text.out());
    }

    @Test
    void planPrintsTheTradeOffAndAChoice(@TempDir Path dir) throws Exception {
        Result r = run(
                new PlanCommand(),
                "-i",
                cliqueProfile(dir).toString(),
                "--ranks-per-node",
                "3",
                "--node-memory",
                "1KiB",
                "--run",
                "100s",
                "--max-logger-fraction",
                "1.0",
                "--logger-memory",
                "4KiB");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("6 ranks on 2 nodes"), r.out());
        assertTrue(r.out().contains("<- chosen"), r.out());
        assertTrue(r.out().contains("chosen: 2 clusters"), r.out());
    }

    @Test
    void reportWritesASelfContainedPage(@TempDir Path dir) throws Exception {
        Path html = dir.resolve("r.html");
        Result r = run(new ReportCommand(), "-i", cliqueProfile(dir).toString(), "-k", "2", "-o", html.toString());
        assertEquals(0, r.status(), r.err());
        String page = Files.readString(html);
        assertTrue(page.contains("id=\"heatmap\"") && page.contains("id=\"lorenz\""));
        assertFalse(page.contains("id=\"model-time\""), "the model describes no run: only on request");
        assertEquals(
                0,
                run(new ReportCommand(), "-i", cliqueProfile(dir).toString(), "--model", "-o", html.toString())
                        .status());
        assertTrue(Files.readString(html).contains("id=\"model-time\""));
        assertEquals(
                0,
                run(
                                new ReportCommand(),
                                "-i",
                                cliqueProfile(dir).toString(),
                                "--sockets",
                                "8000",
                                "-o",
                                html.toString())
                        .status());
        assertTrue(Files.readString(html).contains("At 8000 sockets"), "a model option asks for the model");
        Result none = run(new ReportCommand(), "-o", html.toString());
        assertTrue(none.err().lines().count() <= 3, none.err());
        assertEquals(2, none.status());
        assertTrue(none.err().contains("give --input"), none.err());
    }

    @Test
    void theClusterMapIsTheRunsOwnUnlessAnotherIsAskedFor(@TempDir Path dir) throws Exception {
        // Six ranks in two cliques; the run put ranks 0-1 and 2-5 together, which the profile alone
        // would never choose: the map must show the run's clusters, and -k must still override them.
        Path record = dir.resolve("run.json");
        Files.writeString(
                record,
                "{\"format\":\"rewind-run-record\",\"version\":1,\"application\":\"x\",\"protocol\":\"spbc\","
                        + "\"ranks\":6,\"logSamples\":[],\"recovery\":[],\"clusterOf\":[0,0,1,1,1,1],"
                        + "\"sentBytes\":1000,\"loggedBytes\":430}");
        Path html = dir.resolve("r.html");
        Path profile = cliqueProfile(dir);
        Result r =
                run(new ReportCommand(), "-i", profile.toString(), "--run", record.toString(), "-o", html.toString());
        assertEquals(0, r.status(), r.err());
        String page = Files.readString(html);
        assertTrue(page.contains("rank 2: cluster 1") && page.contains("rank 1: cluster 0"), "the run's clusters");
        assertTrue(page.contains("43.0 % of"), "the share the run logged");
        r = run(
                new ReportCommand(),
                "-i",
                profile.toString(),
                "--run",
                record.toString(),
                "-k",
                "3",
                "-o",
                html.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(Files.readString(html).contains("Cluster map (3 clusters)"));
    }
}
