package io.rewind.cli.tools;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Left-aligned first column, right-aligned numbers: enough for terminal tables. */
final class TextTable {

    private final List<String[]> rows = new ArrayList<>();

    TextTable(String... header) {
        rows.add(header);
    }

    TextTable row(Object... cells) {
        String[] r = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            r[i] = String.valueOf(cells[i]);
        }
        rows.add(r);
        return this;
    }

    void print(PrintWriter out) {
        int columns = rows.get(0).length;
        int[] width = new int[columns];
        for (String[] r : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                if (i > 0) {
                    b.append("  ");
                }
                String cell = r[i];
                String pad = " ".repeat(width[i] - cell.length());
                b.append(i == 0 ? cell + pad : pad + cell);
            }
            out.println(b.toString().stripTrailing());
        }
        out.flush();
    }

    static String f(double v, int digits) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    static String bytes(double b) {
        if (Double.isNaN(b)) {
            return "n/a";
        }
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        int i = 0;
        double v = b;
        while (i < units.length - 1 && Math.abs(v) >= 1024) {
            v /= 1024;
            i++;
        }
        return i == 0 ? String.format(Locale.ROOT, "%.0f B", v) : String.format(Locale.ROOT, "%.2f %s", v, units[i]);
    }
}
