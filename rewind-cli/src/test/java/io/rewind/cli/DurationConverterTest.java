package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** One duration syntax for every command: units, decimals, bare seconds, ISO-8601. */
class DurationConverterTest {

    private final DurationConverter converter = new DurationConverter();

    @Test
    void everyFormReadsAsTheDurationItWrites() {
        assertEquals(Duration.ofMillis(300), converter.convert("300ms"));
        assertEquals(Duration.ofSeconds(2), converter.convert("2s"));
        assertEquals(Duration.ofMillis(1500), converter.convert("1.5s"));
        assertEquals(Duration.ofMinutes(5), converter.convert("5m"));
        assertEquals(Duration.ofHours(2), converter.convert("2H"));
        assertEquals(Duration.ofDays(1), converter.convert("1d"));
        assertEquals(Duration.ofSeconds(60), converter.convert("60"), "a bare number is seconds");
        assertEquals(Duration.ZERO, converter.convert("0"));
        assertEquals(Duration.ofMinutes(10), converter.convert("PT10M"));
    }

    @Test
    void whatIsNoDurationIsRefused() {
        for (String bad : new String[] {"", "s", "soon", "1e3s", "2x", "-5s", "1..5s", "NaNs", "PT-1S"}) {
            assertThrows(CommandLine.TypeConversionException.class, () -> converter.convert(bad), bad);
        }
    }
}
