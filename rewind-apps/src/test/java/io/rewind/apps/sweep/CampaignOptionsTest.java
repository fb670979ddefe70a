package io.rewind.apps.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CampaignOptionsTest {
    @Test
    void optionsAreParsedAndDefaultsKept() {
        CampaignOptions o = CampaignOptions.parse(
                "--minutes", "1.5", "--workers", "3", "--seed", "12", "--jitter", "on", "--out", "x");
        assertEquals(Duration.ofSeconds(90), o.duration());
        assertEquals(3, o.workers());
        assertEquals(12L, o.seed());
        assertEquals(RunDrawer.JitterMode.ON, o.jitter());
        assertEquals(Path.of("x"), o.out());
        assertEquals(10, o.processesEvery());
        assertNull(CampaignOptions.parse().seed(), "drawn when the campaign starts");
        assertNull(CampaignOptions.parse("--workers", "2", "--help"));
    }

    @Test
    void aBadOptionIsNamedInOneLine() {
        assertEquals("--workers must be a whole number, was 'two'", message("--workers", "two"));
        assertEquals("--workers must be from 1 to 64, was 0", message("--workers", "0"));
        assertEquals("--jitter must be on, off or mixed, was 'sometimes'", message("--jitter", "sometimes"));
        assertEquals("--minutes needs a value (see --help)", message("--minutes"));
        assertEquals("unknown option --speed (see --help)", message("--speed", "3"));
        assertEquals("--processes-every must be 0 or more, was -1", message("--processes-every", "-1"));
        assertEquals("unexpected argument 'now' (see --help)", message("now"));
    }

    private static String message(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> CampaignOptions.parse(args))
                .getMessage();
    }
}
