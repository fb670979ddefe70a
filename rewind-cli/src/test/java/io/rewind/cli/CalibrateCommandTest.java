package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code rewind calibrate}: a short run prints every size and the suggested thresholds. */
class CalibrateCommandTest {

    @Test
    void quickCalibrationSuggestsThresholds() {
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int status;
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            status = RewindCommand.execute("calibrate", "--quick", "--time-per-point", "10ms", "--rounds", "1");
        } finally {
            System.setOut(saved);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, out);
        assertTrue(out.contains("1 KiB") && out.contains("4 MiB"), out);
        assertTrue(
                out.matches("(?s).*suggested: pipelineThresholdBytes=\\S+.* helperThreadThresholdBytes=\\S+.*"), out);
    }

    @Test
    void rejectsZeroRounds() {
        assertEquals(2, RewindCommand.execute("calibrate", "--rounds", "0"));
    }
}
