package io.rewind.tools.profile;

/**
 * A communication input file that cannot be read: the message names the file and, when the
 * problem is on one line, that line's number, so a user can fix the file without a debugger.
 */
public final class InputFormatException extends RuntimeException {

    private final String source;
    private final long lineNumber;

    public InputFormatException(String source, long lineNumber, String problem) {
        super(lineNumber > 0 ? source + ":" + lineNumber + ": " + problem : source + ": " + problem);
        this.source = source;
        this.lineNumber = lineNumber;
    }

    /** File name (or another label) of the input. */
    public String source() {
        return source;
    }

    /** 1-based line of the problem, or 0 when it concerns the whole file. */
    public long lineNumber() {
        return lineNumber;
    }
}
