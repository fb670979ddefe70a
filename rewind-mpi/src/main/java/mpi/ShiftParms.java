package mpi;

/** Source and destination ranks of a shift, as {@link CartComm#shift(int, int)} returns them. */
public final class ShiftParms {
    private final int rankSource;
    private final int rankDest;

    protected ShiftParms(int rankSource, int rankDest) {
        this.rankSource = rankSource;
        this.rankDest = rankDest;
    }

    /** The rank to receive from, or {@code MPI.PROC_NULL} past a non-periodic edge. */
    public int getRankSource() {
        return rankSource;
    }

    /** The rank to send to, or {@code MPI.PROC_NULL} past a non-periodic edge. */
    public int getRankDest() {
        return rankDest;
    }
}
