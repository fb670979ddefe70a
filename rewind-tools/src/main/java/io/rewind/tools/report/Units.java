package io.rewind.tools.report;

import java.util.Locale;

/** Human-readable numbers and the byte unit an axis should use. */
final class Units {

    private Units() {}

    /** Binary byte unit fitting {@code maxBytes}: name and divisor. */
    record ByteUnit(String name, double divisor) {}

    static ByteUnit byteUnit(double maxBytes) {
        String[] names = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        double d = 1;
        int i = 0;
        while (i < names.length - 1 && maxBytes >= 1024 * d) {
            d *= 1024;
            i++;
        }
        return new ByteUnit(names[i], d);
    }

    static String bytes(double b) {
        ByteUnit u = byteUnit(b);
        return String.format(Locale.ROOT, u.divisor() == 1 ? "%.0f %s" : "%.2f %s", b / u.divisor(), u.name());
    }

    static String fixed(double v, int digits) {
        return String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    /** Compact tick label: 1.5k, 512k, 2M. */
    static String tick(double v) {
        double a = Math.abs(v);
        if (a >= 1e6 && a % 1e5 == 0) {
            return trim(v / 1e6) + "M";
        }
        if (a >= 1e3 && a % 100 == 0) {
            return trim(v / 1e3) + "k";
        }
        return trim(v);
    }

    private static String trim(double v) {
        if (v == Math.rint(v)) {
            return Long.toString((long) v);
        }
        String s = String.format(Locale.ROOT, "%.3f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
