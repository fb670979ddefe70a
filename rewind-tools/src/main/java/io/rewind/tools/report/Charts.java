package io.rewind.tools.report;

import java.util.List;

/**
 * The chart kinds the report uses, each returning one SVG element: line charts (optionally
 * with a shaded band), bar charts, a heatmap with a colour bar, a rank grid coloured by
 * cluster, and a timeline of phases. Every chart has labelled axes with units and a legend
 * when it shows more than one series.
 */
final class Charts {

    static final String[] PALETTE = {
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"
    };
    private static final String[] HEAT = {"#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"};
    private static final int W = 640;
    private static final int H = 380;
    private static final int LEFT = 78;
    private static final int RIGHT = 20;
    private static final int TOP = 34;
    private static final int BOTTOM = 56;

    private Charts() {}

    /** One line of a line chart. {@code dash} may be null; {@code fill} shades down to {@code fillTo}. */
    record Series(String name, double[] x, double[] y, String color, String dash) {}

    /** A shaded region, drawn under the lines. */
    record Band(String name, double[] x, double[] y, String color) {}

    static String line(
            String title,
            String xLabel,
            String yLabel,
            List<Series> series,
            List<Band> bands,
            boolean logX,
            Double yMin,
            Double yMax) {
        return line(title, xLabel, yLabel, series, bands, logX, yMin, yMax, false);
    }

    /** As above; {@code legendBottom} moves the legend to the lower left for curves that start high. */
    static String line(
            String title,
            String xLabel,
            String yLabel,
            List<Series> series,
            List<Band> bands,
            boolean logX,
            Double yMin,
            Double yMax,
            boolean legendBottom) {
        Svg svg = new Svg(W, H, title);
        double xlo = Double.MAX_VALUE;
        double xhi = -Double.MAX_VALUE;
        double ylo = Double.MAX_VALUE;
        double yhi = -Double.MAX_VALUE;
        for (Series s : series) {
            for (int i = 0; i < s.x.length; i++) {
                xlo = Math.min(xlo, s.x[i]);
                xhi = Math.max(xhi, s.x[i]);
                ylo = Math.min(ylo, s.y[i]);
                yhi = Math.max(yhi, s.y[i]);
            }
        }
        if (yMin != null) {
            ylo = yMin;
        }
        if (yMax != null) {
            yhi = yMax;
        }
        Scale xs = logX ? Scale.log10(xlo, xhi, LEFT, W - RIGHT) : Scale.exact(xlo, xhi, LEFT, W - RIGHT);
        Scale ys = (yMin != null && yMax != null)
                ? Scale.exact(ylo, yhi, H - BOTTOM, TOP)
                : Scale.linear(ylo, yhi, H - BOTTOM, TOP);
        frame(svg, title, xLabel, yLabel, xs, ys);
        for (Band b : bands) {
            double[] px = new double[b.x.length];
            double[] py = new double[b.y.length];
            for (int i = 0; i < px.length; i++) {
                px[i] = xs.map(b.x[i]);
                py[i] = ys.map(b.y[i]);
            }
            svg.polygon(px, py, b.color, 0.35);
        }
        for (Series s : series) {
            double[] px = new double[s.x.length];
            double[] py = new double[s.y.length];
            for (int i = 0; i < px.length; i++) {
                px[i] = xs.map(s.x[i]);
                py[i] = ys.map(s.y[i]);
            }
            svg.polyline(px, py, s.color, 2, s.dash, s.name);
        }
        List<String[]> legend = new java.util.ArrayList<>();
        for (Band b : bands) {
            legend.add(new String[] {b.name, b.color, "band"});
        }
        for (Series s : series) {
            legend.add(new String[] {s.name, s.color, s.dash == null ? "line" : "dash"});
        }
        legend(svg, legend, legendBottom);
        return svg.finish();
    }

    static String bars(
            String title, String yLabel, String[] categories, double[] values, String[] colors, String[] valueLabels) {
        Svg svg = new Svg(W / 2 + 10, H, title);
        int width = W / 2 + 10;
        double max = 0;
        for (double v : values) {
            max = Math.max(max, v);
        }
        Scale ys = Scale.linear(0, max <= 0 ? 1 : max * 1.1, H - BOTTOM - 20, TOP);
        int left = 62;
        svg.text(width / 2.0, 20, title, 14, "middle", "font-weight=\"600\"");
        for (double t : ys.ticks()) {
            double y = ys.map(t);
            svg.line(left, y, width - 10, y, "#e5e5e5", 1, null);
            svg.text(left - 6, y + 4, Units.tick(t), 11, "end", null);
        }
        svg.verticalText(16, (TOP + H - BOTTOM - 20) / 2.0, yLabel, 12);
        double slot = (width - 10 - left) / (double) categories.length;
        for (int i = 0; i < categories.length; i++) {
            double x = left + i * slot + slot * 0.15;
            double y = ys.map(values[i]);
            svg.rect(x, y, slot * 0.7, ys.map(0) - y, colors[i % colors.length], categories[i] + ": " + valueLabels[i]);
            svg.text(x + slot * 0.35, y - 4, valueLabels[i], 10, "middle", null);
            svg.text(
                    x + slot * 0.35,
                    H - BOTTOM - 4,
                    categories[i],
                    10,
                    "end",
                    "transform=\"rotate(-30 " + Svg.num(x + slot * 0.35) + " " + Svg.num(H - BOTTOM - 4.0) + ")\"");
        }
        svg.line(left, ys.map(0), width - 10, ys.map(0), "#333", 1, null);
        return svg.finish();
    }

    /**
     * Heatmap of a square matrix of already binned values; zero cells are left light grey so
     * absent traffic is distinct from light traffic. Log colour scale.
     *
     * @param binRanks ranks per bin (1 when unbinned), for axis labels
     */
    static String heatmap(String title, double[][] cells, int ranks, int binRanks, String unitName) {
        int size = 460;
        int left = 70;
        int top = 34;
        Svg svg = new Svg(W, size + top + 56, title);
        svg.text(W / 2.0, 20, title, 14, "middle", "font-weight=\"600\"");
        int n = cells.length;
        double max = 0;
        double min = Double.MAX_VALUE;
        for (double[] row : cells) {
            for (double v : row) {
                if (v > 0) {
                    max = Math.max(max, v);
                    min = Math.min(min, v);
                }
            }
        }
        if (max == 0) {
            min = max = 1;
        }
        double cell = size / (double) n;
        svg.rect(left, top, size, size, "#f4f4f4", null);
        double logMin = Math.log10(min);
        double span = Math.max(1e-9, Math.log10(max) - logMin);
        for (int s = 0; s < n; s++) {
            for (int d = 0; d < n; d++) {
                double v = cells[s][d];
                if (v > 0) {
                    double t = (Math.log10(v) - logMin) / span;
                    String tip = binRanks == 1
                            ? "rank " + s + " -> " + d + ": " + Units.bytes(v)
                            : "ranks " + s * binRanks + ".. -> " + d * binRanks + "..: " + Units.bytes(v);
                    svg.rect(
                            left + d * cell,
                            top + s * cell,
                            Math.max(cell, 0.6),
                            Math.max(cell, 0.6),
                            heat(t),
                            n <= 64 ? tip : null);
                }
            }
        }
        svg.raw("<rect x=\"" + left + "\" y=\"" + top + "\" width=\"" + size + "\" height=\"" + size
                + "\" fill=\"none\" stroke=\"#333\"/>");
        for (double t : Scale.exact(0, ranks, 0, 1).ticks()) {
            double p = t / ranks * size;
            svg.text(left + p, top + size + 16, Units.tick(t), 11, "middle", null);
            svg.text(left - 6, top + p + 4, Units.tick(t), 11, "end", null);
        }
        svg.text(left + size / 2.0, top + size + 38, "receiver rank", 12, "middle", null);
        svg.verticalText(18, top + size / 2.0, "sender rank", 12);
        int barX = left + size + 40;
        int barH = size - 40;
        for (int i = 0; i < 50; i++) {
            double t = 1 - i / 49.0;
            svg.rect(barX, top + 20 + i * barH / 50.0, 18, barH / 50.0 + 0.5, heat(t), null);
        }
        svg.text(barX + 9, top + 12, unitName, 11, "middle", null);
        svg.text(barX + 24, top + 24, Units.bytes(max), 11, "start", null);
        svg.text(barX + 24, top + 20 + barH, Units.bytes(min), 11, "start", null);
        svg.text(barX + 9, top + 40 + barH, "log scale", 10, "middle", null);
        svg.text(barX + 9, top + 54 + barH, "grey: none", 10, "middle", null);
        return svg.finish();
    }

    /** Ranks laid out row by row in a near-square grid, each cell coloured by its cluster. */
    static String clusterGrid(String title, int[] clusterOf, int clusters, String caption) {
        int n = clusterOf.length;
        int cols = (int) Math.ceil(Math.sqrt(n));
        int rows = (n + cols - 1) / cols;
        double cell = Math.min(40, 440.0 / Math.max(cols, rows));
        int left = 70;
        int top = 40;
        int height = (int) (top + rows * cell + 60);
        Svg svg = new Svg(W, Math.max(height, 200), title);
        svg.text(W / 2.0, 20, title, 14, "middle", "font-weight=\"600\"");
        for (int r = 0; r < n; r++) {
            int row = r / cols;
            int col = r % cols;
            String color = PALETTE[clusterOf[r] % PALETTE.length];
            svg.rect(
                    left + col * cell,
                    top + row * cell,
                    cell - (cell > 4 ? 1 : 0),
                    cell - (cell > 4 ? 1 : 0),
                    color,
                    n <= 4096 ? "rank " + r + ": cluster " + clusterOf[r] : null);
        }
        svg.text(left, top + rows * cell + 18, "rank = row x " + cols + " + column", 12, "start", null);
        svg.text(left, top + rows * cell + 36, caption, 11, "start", null);
        int lx = (int) (left + cols * cell + 20);
        int shown = Math.min(clusters, 12);
        for (int c = 0; c < shown; c++) {
            svg.rect(lx, top + c * 18, 12, 12, PALETTE[c % PALETTE.length], null);
            svg.text(lx + 18, top + c * 18 + 10, "cluster " + c, 11, "start", null);
        }
        if (clusters > shown) {
            svg.text(lx, top + shown * 18 + 10, "... " + clusters + " clusters (colours repeat)", 11, "start", null);
        }
        return svg.finish();
    }

    /** A phase timeline: one row per label, one bar per phase, colours by phase name. */
    record Span(String row, String phase, double startMs, double endMs) {}

    static String timeline(String title, List<Span> spans, List<String> phases) {
        List<String> rows = spans.stream().map(Span::row).distinct().toList();
        int rowH = 26;
        int height = TOP + rows.size() * rowH + BOTTOM + 10;
        Svg svg = new Svg(W, Math.max(height, 160), title);
        double lo = spans.stream().mapToDouble(Span::startMs).min().orElse(0);
        double hi = spans.stream().mapToDouble(Span::endMs).max().orElse(1);
        int left = 90;
        Scale xs = Scale.linear(lo, hi, left, W - 130);
        svg.text(W / 2.0, 20, title, 14, "middle", "font-weight=\"600\"");
        double bottom = TOP + rows.size() * rowH;
        for (double t : xs.ticks()) {
            double x = xs.map(t);
            svg.line(x, TOP, x, bottom, "#e5e5e5", 1, null);
            svg.text(x, bottom + 16, Units.tick(t), 11, "middle", null);
        }
        svg.text((left + W - 130) / 2.0, bottom + 38, "time since start of run (ms)", 12, "middle", null);
        for (int i = 0; i < rows.size(); i++) {
            svg.text(left - 8, TOP + i * rowH + rowH / 2.0 + 4, rows.get(i), 11, "end", null);
        }
        for (Span s : spans) {
            int row = rows.indexOf(s.row);
            String color = PALETTE[Math.max(0, phases.indexOf(s.phase)) % PALETTE.length];
            double x0 = xs.map(s.startMs);
            double x1 = Math.max(x0 + 1.5, xs.map(s.endMs));
            svg.rect(
                    x0,
                    TOP + row * rowH + 4,
                    x1 - x0,
                    rowH - 8,
                    color,
                    s.row + " " + s.phase + ": " + Units.fixed(s.startMs, 0) + "-" + Units.fixed(s.endMs, 0) + " ms");
        }
        for (int p = 0; p < phases.size(); p++) {
            svg.rect(W - 115, TOP + p * 18, 12, 12, PALETTE[p % PALETTE.length], null);
            svg.text(W - 98, TOP + p * 18 + 10, phases.get(p), 11, "start", null);
        }
        return svg.finish();
    }

    private static void frame(Svg svg, String title, String xLabel, String yLabel, Scale xs, Scale ys) {
        svg.text(W / 2.0, 20, title, 14, "middle", "font-weight=\"600\"");
        for (double t : ys.ticks()) {
            double y = ys.map(t);
            svg.line(LEFT, y, W - RIGHT, y, "#e5e5e5", 1, null);
            svg.text(LEFT - 6, y + 4, Units.tick(t), 11, "end", null);
        }
        for (double t : xs.ticks()) {
            double x = xs.map(t);
            svg.line(x, H - BOTTOM, x, H - BOTTOM + 4, "#333", 1, null);
            svg.text(x, H - BOTTOM + 17, Units.tick(t), 11, "middle", null);
        }
        svg.line(LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM, "#333", 1, null);
        svg.line(LEFT, TOP, LEFT, H - BOTTOM, "#333", 1, null);
        svg.text((LEFT + W - RIGHT) / 2.0, H - 14, xLabel, 12, "middle", null);
        svg.verticalText(18, (TOP + H - BOTTOM) / 2.0, yLabel, 12);
    }

    private static void legend(Svg svg, List<String[]> entries, boolean bottom) {
        if (entries.size() < 2) {
            return;
        }
        double x = LEFT + 12;
        double y = bottom ? H - BOTTOM - entries.size() * 16 - 6 : TOP + 8;
        int longest = entries.stream().mapToInt(e -> e[0].length()).max().orElse(4);
        double boxW = Math.min(300, 40 + longest * 6.2);
        svg.rect(x - 6, y - 6, boxW, entries.size() * 16 + 8, "#ffffff", null);
        svg.raw("<rect x=\"" + Svg.num(x - 6) + "\" y=\"" + Svg.num(y - 6) + "\" width=\"" + Svg.num(boxW)
                + "\" height=\"" + (entries.size() * 16 + 8) + "\" fill=\"none\" stroke=\"#bbb\"/>");
        for (int i = 0; i < entries.size(); i++) {
            String[] e = entries.get(i);
            double yy = y + i * 16 + 6;
            if (e[2].equals("band")) {
                svg.polygon(
                        new double[] {x, x + 22, x + 22, x}, new double[] {yy - 5, yy - 5, yy + 5, yy + 5}, e[1], 0.35);
            } else {
                svg.line(x, yy, x + 22, yy, e[1], 2, e[2].equals("dash") ? "5 3" : null);
            }
            svg.text(x + 28, yy + 4, e[0], 11, "start", null);
        }
    }

    private static String heat(double t) {
        t = Math.max(0, Math.min(1, t));
        double pos = t * (HEAT.length - 1);
        int i = Math.min(HEAT.length - 2, (int) pos);
        double f = pos - i;
        int a = Integer.parseInt(HEAT[i].substring(1), 16);
        int b = Integer.parseInt(HEAT[i + 1].substring(1), 16);
        int r = (int) Math.round(((a >> 16) & 255) * (1 - f) + ((b >> 16) & 255) * f);
        int g = (int) Math.round(((a >> 8) & 255) * (1 - f) + ((b >> 8) & 255) * f);
        int bl = (int) Math.round((a & 255) * (1 - f) + (b & 255) * f);
        return String.format("#%02x%02x%02x", r, g, bl);
    }
}
