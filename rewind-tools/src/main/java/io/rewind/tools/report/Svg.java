package io.rewind.tools.report;

import java.util.Locale;

/** Minimal SVG writer: numbers are printed with few digits so large plots stay small. */
final class Svg {

    private final StringBuilder out = new StringBuilder(4096);

    Svg(int width, int height, String label) {
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(width)
                .append("\" height=\"")
                .append(height)
                .append("\" viewBox=\"0 0 ")
                .append(width)
                .append(' ')
                .append(height)
                .append("\" role=\"img\" aria-label=\"")
                .append(escape(label))
                .append("\">");
    }

    Svg rect(double x, double y, double w, double h, String fill, String tooltip) {
        out.append("<rect x=\"")
                .append(num(x))
                .append("\" y=\"")
                .append(num(y))
                .append("\" width=\"")
                .append(num(w))
                .append("\" height=\"")
                .append(num(h))
                .append("\" fill=\"")
                .append(fill)
                .append('"');
        if (tooltip != null) {
            out.append("><title>").append(escape(tooltip)).append("</title></rect>");
        } else {
            out.append("/>");
        }
        return this;
    }

    Svg line(double x1, double y1, double x2, double y2, String stroke, double width, String dash) {
        out.append("<line x1=\"")
                .append(num(x1))
                .append("\" y1=\"")
                .append(num(y1))
                .append("\" x2=\"")
                .append(num(x2))
                .append("\" y2=\"")
                .append(num(y2))
                .append("\" stroke=\"")
                .append(stroke)
                .append("\" stroke-width=\"")
                .append(num(width))
                .append('"');
        if (dash != null) {
            out.append(" stroke-dasharray=\"").append(dash).append('"');
        }
        out.append("/>");
        return this;
    }

    Svg polyline(double[] xs, double[] ys, String stroke, double width, String dash, String tooltip) {
        out.append("<polyline fill=\"none\" stroke=\"")
                .append(stroke)
                .append("\" stroke-width=\"")
                .append(num(width))
                .append("\" stroke-linejoin=\"round\"");
        if (dash != null) {
            out.append(" stroke-dasharray=\"").append(dash).append('"');
        }
        out.append(" points=\"");
        for (int i = 0; i < xs.length; i++) {
            out.append(num(xs[i])).append(',').append(num(ys[i])).append(' ');
        }
        out.append('"');
        if (tooltip != null) {
            out.append("><title>").append(escape(tooltip)).append("</title></polyline>");
        } else {
            out.append("/>");
        }
        return this;
    }

    Svg polygon(double[] xs, double[] ys, String fill, double opacity) {
        out.append("<polygon fill=\"")
                .append(fill)
                .append("\" fill-opacity=\"")
                .append(num(opacity))
                .append("\" stroke=\"none\" points=\"");
        for (int i = 0; i < xs.length; i++) {
            out.append(num(xs[i])).append(',').append(num(ys[i])).append(' ');
        }
        out.append("\"/>");
        return this;
    }

    Svg circle(double x, double y, double r, String fill, String tooltip) {
        out.append("<circle cx=\"")
                .append(num(x))
                .append("\" cy=\"")
                .append(num(y))
                .append("\" r=\"")
                .append(num(r))
                .append("\" fill=\"")
                .append(fill)
                .append("\"><title>")
                .append(escape(tooltip))
                .append("</title></circle>");
        return this;
    }

    /** anchor: start, middle or end. */
    Svg text(double x, double y, String text, int size, String anchor, String extra) {
        out.append("<text x=\"")
                .append(num(x))
                .append("\" y=\"")
                .append(num(y))
                .append("\" font-size=\"")
                .append(size)
                .append("\" text-anchor=\"")
                .append(anchor)
                .append('"');
        if (extra != null) {
            out.append(' ').append(extra);
        }
        out.append('>').append(escape(text)).append("</text>");
        return this;
    }

    /** Text rotated by -90 degrees around its anchor (y-axis labels). */
    Svg verticalText(double x, double y, String text, int size) {
        return text(x, y, text, size, "middle", "transform=\"rotate(-90 " + num(x) + " " + num(y) + ")\"");
    }

    Svg raw(String s) {
        out.append(s);
        return this;
    }

    String finish() {
        return out.append("</svg>").toString();
    }

    static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e9) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
