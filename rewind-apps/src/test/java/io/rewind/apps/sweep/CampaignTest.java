package io.rewind.apps.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A short real campaign: a few runs as threads, with and without jitter, each compared bit for bit. */
@Tag("oracle")
class CampaignTest {
    @Test
    void aShortCampaignRunsComparesAndReports(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        CampaignOptions options = CampaignOptions.parse(
                "--minutes",
                "0.2",
                "--workers",
                "2",
                "--seed",
                "20261201",
                "--processes-every",
                "0",
                "--out",
                dir.toString());
        Campaign c = new Campaign(options, new PrintStream(printed, true, StandardCharsets.UTF_8));
        int status = c.run();
        String out = printed.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, out);
        Tally t = c.tally();
        assertTrue(t.runs() >= 2, out);
        assertTrue(t.struck() > 0, "no kill struck, so nothing was checked: " + out);
        for (String d : Tally.DIMENSIONS) {
            assertEquals(
                    t.runs(),
                    t.counts(d).values().stream().mapToInt(Tally.Count::runs).sum(),
                    d);
        }
        String json = Files.readString(dir.resolve("sweep-" + Long.toHexString(20261201) + ".json"));
        assertTrue(json.contains("\"runs\": " + t.runs() + ","), json);
        assertTrue(json.contains("\"failures\": []"), json);
        String text = Files.readString(dir.resolve("sweep-" + Long.toHexString(20261201) + ".txt"));
        assertTrue(text.contains("--seed 20261201"), text);
        assertTrue(out.contains("sweep: seed 20261201"), out);
    }
}
