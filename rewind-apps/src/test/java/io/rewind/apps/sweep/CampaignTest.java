package io.rewind.apps.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A short real campaign: a few runs as threads, with and without jitter, each compared bit for bit. */
@Tag("oracle")
class CampaignTest {
    @Test
    void aShortCampaignRunsComparesAndReports(@TempDir Path dir) throws IOException {
        long seed = seedWhoseFirstRunsKillAtOperations();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        CampaignOptions options = CampaignOptions.parse(
                "--minutes",
                "0.2",
                "--workers",
                "2",
                "--seed",
                Long.toString(seed),
                "--processes-every",
                "0",
                "--out",
                dir.toString());
        Campaign c = new Campaign(options, new PrintStream(printed, true, StandardCharsets.UTF_8));
        int status = c.run();
        String out = printed.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, out);
        Tally t = c.tally();
        assertTrue(t.runs() >= 1, out);
        assertTrue(t.struck() > 0, "no kill struck, so nothing was checked: " + out);
        for (String d : Tally.DIMENSIONS) {
            assertEquals(
                    t.runs(),
                    t.counts(d).values().stream().mapToInt(Tally.Count::runs).sum(),
                    d);
        }
        String json = Files.readString(dir.resolve("sweep-" + Long.toHexString(seed) + ".json"));
        assertTrue(json.contains("\"runs\": " + t.runs() + ","), json);
        assertTrue(json.contains("\"failures\": []"), json);
        String text = Files.readString(dir.resolve("sweep-" + Long.toHexString(seed) + ".txt"));
        assertTrue(text.contains("--seed " + seed), text);
        assertTrue(out.contains("sweep: seed " + seed), out);
    }

    /**
     * A seed whose first runs kill at operation counts, which strike whenever the run gets that far (a
     * kill at a drawn time may find the run over): the kind of kill does not depend on the counts.
     */
    private static long seedWhoseFirstRunsKillAtOperations() {
        for (long seed = 1; ; seed++) {
            RunDrawer d = new RunDrawer(seed, List.of("pessimistic", "causal"), 0, RunDrawer.JitterMode.MIXED, 200);
            boolean atOperations = true;
            for (int i = 0; i < 4; i++) {
                long[] ops = new long[d.program(i).ranks()];
                Arrays.fill(ops, 100);
                KillDrawer.Kind k = d.draw(i, ops, 100).killKind();
                atOperations &= k != KillDrawer.Kind.TIME && k != KillDrawer.Kind.CHAOS;
            }
            if (atOperations) {
                return seed;
            }
        }
    }
}
