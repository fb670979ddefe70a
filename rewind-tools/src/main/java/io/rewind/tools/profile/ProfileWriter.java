package io.rewind.tools.profile;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the {@code rewind-profile 1} format that {@link ProfileReader} reads. The runtime uses
 * it at the end of a profiled run; tools use it to save synthetic or converted profiles.
 * Output is deterministic (rank order, then destination order), so profiles diff cleanly.
 */
public final class ProfileWriter {

    private ProfileWriter() {}

    public static void write(CommProfile profile, Path file) {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(profile, out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static String toText(CommProfile profile) {
        java.io.StringWriter out = new java.io.StringWriter();
        try {
            write(profile, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    public static void write(CommProfile profile, Writer out) throws IOException {
        out.write(ProfileReader.MAGIC + " " + ProfileReader.VERSION + "\n");
        out.write("ranks " + profile.ranks() + "\n");
        double[] times = profile.rankTimeSeconds();
        for (int r = 0; r < profile.ranks(); r++) {
            if (!Double.isNaN(times[r])) {
                out.write("rank-time " + r + " " + times[r] + "\n");
            }
        }
        writeMatrix("p2p", profile.p2p(), out);
        writeMatrix("coll", profile.collective(), out);
    }

    private static void writeMatrix(String keyword, CommMatrix m, Writer out) throws IOException {
        StringBuilder line = new StringBuilder(64);
        for (int s = 0; s < m.ranks(); s++) {
            // The diagonal is kept out of the matrix proper; write it back so nothing is lost.
            if (m.selfBytes(s) != 0 || m.selfMessages(s) != 0) {
                line.setLength(0);
                line.append(keyword)
                        .append(' ')
                        .append(s)
                        .append(' ')
                        .append(s)
                        .append(' ')
                        .append(m.selfBytes(s))
                        .append(' ')
                        .append(m.selfMessages(s))
                        .append('\n');
                out.append(line);
            }
            for (int c = m.firstChannel(s); c < m.endChannel(s); c++) {
                line.setLength(0);
                line.append(keyword)
                        .append(' ')
                        .append(s)
                        .append(' ')
                        .append(m.destinationOf(c))
                        .append(' ')
                        .append(m.bytesOf(c))
                        .append(' ')
                        .append(m.messagesOf(c))
                        .append('\n');
                out.append(line);
            }
        }
    }
}
