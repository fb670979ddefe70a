package io.rewind.cli.tools;

import java.util.Locale;
import picocli.CommandLine;

/** Parses sizes such as 16GiB, 512MiB, 3.2GB, 1e9 (bytes). Binary and decimal suffixes both accepted. */
public final class ByteSizeConverter implements CommandLine.ITypeConverter<Double> {

    @Override
    public Double convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT).replace(" ", "");
        String[][] suffixes = {
            {"kib", "1024"},
            {"mib", "1048576"},
            {"gib", "1073741824"},
            {"tib", "1099511627776"},
            {"kb", "1e3"},
            {"mb", "1e6"},
            {"gb", "1e9"},
            {"tb", "1e12"},
            {"k", "1024"},
            {"m", "1048576"},
            {"g", "1073741824"},
            {"t", "1099511627776"},
            {"b", "1"}
        };
        double multiplier = 1;
        for (String[] s : suffixes) {
            if (v.endsWith(s[0])) {
                multiplier = Double.parseDouble(s[1]);
                v = v.substring(0, v.length() - s[0].length());
                break;
            }
        }
        try {
            double number = Double.parseDouble(v);
            if (!(number > 0) || Double.isInfinite(number)) {
                throw new NumberFormatException();
            }
            return number * multiplier;
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a size (use e.g. 16GiB, 512MiB, 3.2GB)");
        }
    }
}
