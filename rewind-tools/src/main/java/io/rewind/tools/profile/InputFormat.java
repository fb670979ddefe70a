package io.rewind.tools.profile;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The kinds of communication input the tools accept, and how to tell them apart. */
public enum InputFormat {
    /** Rewind's own {@code rewind-profile 1} text format. */
    PROFILE,
    /** Dense N x N CSV of bytes (optionally with a second CSV of message counts). */
    CSV,
    /** Edge list {@code src,dst,bytes[,count]}. */
    EDGES,
    /** Decide from the content: profile header, edge-list header or extension, else dense CSV. */
    AUTO;

    /**
     * Loads an input.
     *
     * @param counts message-count CSV for {@link #CSV}; ignored otherwise, may be null
     * @param ranks  rank count for {@link #EDGES} (0 infers it)
     */
    public CommProfile load(Path input, Path counts, int ranks) {
        InputFormat actual = this == AUTO ? detect(input) : this;
        return switch (actual) {
            case PROFILE -> ProfileReader.read(input);
            case CSV -> DenseCsvReader.read(input, counts);
            case EDGES -> EdgeListReader.read(input, ranks);
            case AUTO -> throw new IllegalStateException("detect never answers AUTO");
        };
    }

    /**
     * Guesses the format. A profile is recognised by its first line. An edge list by its
     * extension ({@code .edges}, {@code .el}) or a header naming src/dst; anything else with
     * commas is taken as a dense CSV. Ambiguous small files should be given an explicit format.
     */
    public static InputFormat detect(Path input) {
        String name = input.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        if (name.endsWith(".edges") || name.endsWith(".el") || name.endsWith(".edgelist")) {
            return EDGES;
        }
        try (BufferedReader in = Files.newBufferedReader(input, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                String s = line.strip();
                if (s.isEmpty() || s.startsWith("#")) {
                    continue;
                }
                if (s.startsWith(ProfileReader.MAGIC)) {
                    return PROFILE;
                }
                String lower = s.toLowerCase(java.util.Locale.ROOT);
                if (lower.startsWith("src") || lower.startsWith("source") || lower.startsWith("from")) {
                    return EDGES;
                }
                return CSV;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + input, e);
        }
        throw new InputFormatException(input.toString(), 0, "empty input file");
    }
}
