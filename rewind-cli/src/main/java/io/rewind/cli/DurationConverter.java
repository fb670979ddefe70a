package io.rewind.cli;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;

/**
 * Parses durations as every command takes them: a number with a unit ({@code 500ms}, {@code 90s},
 * {@code 1.5s}, {@code 10m}, {@code 2h}, {@code 1d}), a bare number of seconds ({@code 60}, the unit
 * of the options that once took integer seconds), or ISO-8601 ({@code PT10M}).
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        if (value.trim().startsWith("-")) {
            throw new CommandLine.TypeConversionException("'" + value + "': a duration cannot be negative");
        }
        try {
            return parse(value);
        } catch (RuntimeException e) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a duration (use e.g. 500ms, 90s, 10m, 2h)");
        }
    }

    /** The duration {@code value} writes; IllegalArgumentException (or a subclass) if it is none or negative. */
    public static Duration parse(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.startsWith("p")) {
            Duration d = Duration.parse(v.toUpperCase(Locale.ROOT));
            if (d.isNegative()) {
                throw new IllegalArgumentException(value);
            }
            return d;
        }
        double unitNanos = 1e9;
        String number = v;
        String[][] units = {{"ms", "1e6"}, {"s", "1e9"}, {"m", "6e10"}, {"h", "3.6e12"}, {"d", "8.64e13"}};
        for (String[] u : units) {
            if (v.endsWith(u[0])) {
                unitNanos = Double.parseDouble(u[1]);
                number = v.substring(0, v.length() - u[0].length());
                break;
            }
        }
        if (!number.matches("\\d+(\\.\\d+)?|\\.\\d+")) {
            throw new IllegalArgumentException(value);
        }
        double nanos = Double.parseDouble(number) * unitNanos;
        if (nanos > Long.MAX_VALUE) {
            throw new IllegalArgumentException(value);
        }
        return Duration.ofNanos(Math.round(nanos));
    }
}
