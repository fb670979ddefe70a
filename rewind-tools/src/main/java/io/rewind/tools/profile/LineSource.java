package io.rewind.tools.profile;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Reads lines while counting them, so readers can name the line an error is on. */
final class LineSource {

    private final BufferedReader reader;
    private final String name;
    private long lineNumber;

    LineSource(BufferedReader reader, String name) {
        this.reader = reader;
        this.name = name;
    }

    /** The next line, or {@code null} at the end. */
    String next() {
        try {
            String line = reader.readLine();
            if (line != null) {
                lineNumber++;
            }
            return line;
        } catch (IOException e) {
            throw new UncheckedIOException(name + ":" + (lineNumber + 1) + ": read failed", e);
        }
    }

    long lineNumber() {
        return lineNumber;
    }

    String name() {
        return name;
    }

    InputFormatException error(String problem) {
        return new InputFormatException(name, lineNumber, problem);
    }

    InputFormatException errorAt(long line, String problem) {
        return new InputFormatException(name, line, problem);
    }
}
