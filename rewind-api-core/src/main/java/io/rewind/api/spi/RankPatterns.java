package io.rewind.api.spi;

/** The communication patterns of one rank, as {@link io.rewind.api.Patterns} describes them. */
public interface RankPatterns {
    /** A new pattern id: 1, 2, 3 ... in declaration order. */
    int declare();

    /** Starts the next iteration of {@code pattern}. */
    void begin(int pattern);

    /** Ends the iteration of {@code pattern}. */
    void end(int pattern);

    /** The last iteration id begun of {@code pattern}. */
    int iteration(int pattern);

    /** The active pattern id, 0 outside any pattern. */
    int active();
}
