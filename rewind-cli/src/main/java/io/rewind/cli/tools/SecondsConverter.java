package io.rewind.cli.tools;

import io.rewind.cli.DurationConverter;
import picocli.CommandLine;

/**
 * A duration in seconds, for the tools' figures that are rates per second: written as every duration
 * option takes it (500ms, 90s, 20m, 2h, 1.5d, or a bare number of seconds), and more than zero.
 */
final class SecondsConverter implements CommandLine.ITypeConverter<Double> {

    @Override
    public Double convert(String value) {
        double seconds;
        try {
            seconds = DurationConverter.parse(value).toNanos() / 1e9;
        } catch (RuntimeException e) {
            seconds = 0;
        }
        if (!(seconds > 0)) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (use e.g. 90s, 20m, 2h)");
        }
        return seconds;
    }
}
