package io.rewind.runtime.rank;

/**
 * The simulated crash of a rank: thrown in the rank's threads at its next runtime call once the
 * failure injector has struck, it unwinds the program. An {@code Error}, so ordinary
 * {@code catch (Exception e)} in a program does not swallow the crash.
 */
public final class RankKilledError extends Error {
    private final int rank;
    private final int incarnation;

    public RankKilledError(int rank, int incarnation, String how) {
        super("rank " + rank + " (incarnation " + incarnation + ") crashed: " + how, null, false, false);
        this.rank = rank;
        this.incarnation = incarnation;
    }

    public int rank() {
        return rank;
    }

    public int incarnation() {
        return incarnation;
    }
}
