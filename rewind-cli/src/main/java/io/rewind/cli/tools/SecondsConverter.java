package io.rewind.cli.tools;

import java.util.Locale;
import picocli.CommandLine;

/** Parses durations into seconds: 500ms, 90s, 20m, 2h, 1.5d, or a plain number of seconds. */
final class SecondsConverter implements CommandLine.ITypeConverter<Double> {

    @Override
    public Double convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        double unit = 1;
        if (v.endsWith("ms")) {
            unit = 1e-3;
            v = v.substring(0, v.length() - 2);
        } else if (v.endsWith("s")) {
            v = v.substring(0, v.length() - 1);
        } else if (v.endsWith("m")) {
            unit = 60;
            v = v.substring(0, v.length() - 1);
        } else if (v.endsWith("h")) {
            unit = 3600;
            v = v.substring(0, v.length() - 1);
        } else if (v.endsWith("d")) {
            unit = 86400;
            v = v.substring(0, v.length() - 1);
        }
        try {
            double n = Double.parseDouble(v);
            if (!(n > 0) || Double.isInfinite(n)) {
                throw new NumberFormatException();
            }
            return n * unit;
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (use e.g. 90s, 20m, 2h)");
        }
    }
}
