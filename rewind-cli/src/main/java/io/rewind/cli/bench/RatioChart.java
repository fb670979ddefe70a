package io.rewind.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart of a ratio against message size, as one standalone SVG: log-2 x axis labelled in
 * B/KiB/MiB, linear y axis, dashed horizontal reference lines (targets), and a legend beside the
 * plot so that many lines stay readable. The report charts of {@code rewind report} use decimal
 * ticks and a legend inside the plot, which crowd a 1 B to 4 MiB axis; this one is made for it.
 */
final class RatioChart {
    /** One line: a name for the legend and one y value per x (NaN leaves a gap). */
    record Line(String name, double[] y, boolean dashed) {}

    /** A horizontal reference line, labelled at its right end. */
    record Reference(String label, double y) {}

    private static final String[] PALETTE = {
        "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
        "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd", "#e6550d"
    };
    private static final int W = 900;
    private static final int H = 560;
    private static final int LEFT = 70;
    private static final int PLOT_RIGHT = 620;
    private static final int TOP = 44;
    private static final int BOTTOM = 70;

    private RatioChart() {}

    static String svg(
            String title,
            String xLabel,
            String yLabel,
            long[] sizesBytes,
            List<Line> lines,
            List<Reference> references,
            double yMin,
            double yMax) {
        StringBuilder s = new StringBuilder(8192);
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(W)
                .append("\" height=\"")
                .append(H)
                .append("\" viewBox=\"0 0 ")
                .append(W)
                .append(' ')
                .append(H)
                .append("\" font-family=\"sans-serif\">\n");
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        text(s, W / 2.0, 24, title, 15, "middle", "font-weight=\"bold\"");
        double lx0 = log2(sizesBytes[0]);
        double lx1 = log2(sizesBytes[sizesBytes.length - 1]);
        double bottomY = H - BOTTOM;
        // y grid and labels
        double step = niceStep((yMax - yMin) / 8);
        for (double v = Math.ceil(yMin / step) * step; v <= yMax + 1e-9; v += step) {
            double y = y(v, yMin, yMax);
            line(s, LEFT, y, PLOT_RIGHT, y, "#e3e3e3", 1, null);
            text(s, LEFT - 6, y + 4, fmt(v), 12, "end", null);
        }
        // x ticks at powers of two, labelled every other one when crowded
        int every = sizesBytes.length > 12 || (lx1 - lx0) > 12 ? 2 : 1;
        for (long p = 0; p <= 62; p++) {
            long b = 1L << p;
            if (b < sizesBytes[0] || b > sizesBytes[sizesBytes.length - 1]) {
                continue;
            }
            double x = x(log2(b), lx0, lx1);
            line(s, x, TOP, x, bottomY, "#f0f0f0", 1, null);
            line(s, x, bottomY, x, bottomY + 5, "#333", 1, null);
            if ((p - (long) lx0) % every == 0) {
                text(s, x, bottomY + 19, bytes(b), 12, "middle", null);
            }
        }
        line(s, LEFT, bottomY, PLOT_RIGHT, bottomY, "#333", 1, null);
        line(s, LEFT, TOP, LEFT, bottomY, "#333", 1, null);
        text(s, (LEFT + PLOT_RIGHT) / 2.0, H - 28, xLabel, 13, "middle", null);
        text(
                s,
                20,
                (TOP + bottomY) / 2.0,
                yLabel,
                13,
                "middle",
                String.format(Locale.ROOT, "transform=\"rotate(-90 20 %.1f)\"", (TOP + bottomY) / 2.0));
        for (Reference r : references) {
            double y = y(r.y(), yMin, yMax);
            line(s, LEFT, y, PLOT_RIGHT, y, "#555", 1.2, "6 4");
            text(s, PLOT_RIGHT - 4, y - 4, r.label(), 11, "end", "fill=\"#555\"");
        }
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            String color = PALETTE[i % PALETTE.length];
            List<String> points = new ArrayList<>();
            for (int k = 0; k < sizesBytes.length && k < l.y().length; k++) {
                double v = l.y()[k];
                if (Double.isNaN(v)) {
                    continue;
                }
                double px = x(log2(sizesBytes[k]), lx0, lx1);
                double py = y(Math.max(yMin, Math.min(yMax, v)), yMin, yMax);
                points.add(String.format(Locale.ROOT, "%.1f,%.1f", px, py));
                s.append(String.format(
                        Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>", px, py, color));
            }
            s.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"2\"");
            if (l.dashed()) {
                s.append(" stroke-dasharray=\"7 3\"");
            }
            s.append(" points=\"")
                    .append(String.join(" ", points))
                    .append("\"><title>")
                    .append(escape(l.name()))
                    .append("</title></polyline>\n");
            // legend entry to the right of the plot
            double ly = TOP + 8 + i * 20;
            line(s, PLOT_RIGHT + 20, ly, PLOT_RIGHT + 48, ly, color, 2.5, l.dashed() ? "7 3" : null);
            text(s, PLOT_RIGHT + 54, ly + 4, l.name(), 12, "start", null);
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static double x(double lx, double lx0, double lx1) {
        return LEFT + (lx1 == lx0 ? 0.5 : (lx - lx0) / (lx1 - lx0)) * (PLOT_RIGHT - LEFT);
    }

    private static double y(double v, double yMin, double yMax) {
        return H - BOTTOM - (v - yMin) / (yMax - yMin) * (H - BOTTOM - TOP);
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    static String bytes(long b) {
        if (b >= 1 << 20 && b % (1 << 20) == 0) {
            return (b >> 20) + " MiB";
        }
        if (b >= 1 << 10 && b % (1 << 10) == 0) {
            return (b >> 10) + " KiB";
        }
        return b + " B";
    }

    private static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String fmt(double v) {
        String t = String.format(Locale.ROOT, "%.2f", v);
        return t.endsWith("0") ? t.substring(0, t.length() - 1) : t;
    }

    private static void line(
            StringBuilder s, double x1, double y1, double x2, double y2, String color, double width, String dash) {
        s.append(String.format(
                Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s/>\n",
                x1,
                y1,
                x2,
                y2,
                color,
                width,
                dash == null ? "" : " stroke-dasharray=\"" + dash + "\""));
    }

    private static void text(StringBuilder s, double x, double y, String text, int size, String anchor, String extra) {
        s.append(String.format(
                Locale.ROOT,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\"%s>%s</text>\n",
                x,
                y,
                size,
                anchor,
                extra == null ? "" : " " + extra,
                escape(text)));
    }

    private static String escape(String t) {
        return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
