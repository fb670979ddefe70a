package io.rewind.tools.profile;

/** Parses traffic cells of CSV inputs: whole or decimal non-negative numbers, rounded to a count. */
final class NumberCells {

    private NumberCells() {}

    static long parse(LineSource source, String cell, int column, String what) {
        String text = cell.strip();
        if (text.isEmpty()) {
            throw source.error("column " + column + ": empty " + what + " cell");
        }
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException notWhole) {
            double d;
            try {
                d = Double.parseDouble(text);
            } catch (NumberFormatException e) {
                throw source.error("column " + column + ": " + what + " is not a number: '"
                        + ProfileReader.abbreviate(text) + "'");
            }
            if (Double.isNaN(d) || Double.isInfinite(d) || d > Long.MAX_VALUE) {
                throw source.error("column " + column + ": " + what + " is not a finite number: '" + text + "'");
            }
            value = Math.round(d);
            if (d < 0) {
                value = -1;
            }
        }
        if (value < 0) {
            throw source.error("column " + column + ": " + what + " must not be negative: " + text);
        }
        return value;
    }

    static boolean isComment(String line) {
        String s = line.strip();
        return s.isEmpty() || s.startsWith("#");
    }
}
