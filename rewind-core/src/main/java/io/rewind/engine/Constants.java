package io.rewind.engine;

/** Wildcards and special ranks, with Open MPI's values. */
public final class Constants {
    public static final int ANY_SOURCE = -1;
    public static final int ANY_TAG = -1;
    public static final int PROC_NULL = -2;
    public static final int ROOT = -4;
    public static final int UNDEFINED = -32766;
    /** Largest tag a program may use (Open MPI's MPI_TAG_UB on shared memory). */
    public static final int TAG_UB = Integer.MAX_VALUE;

    private Constants() {}
}
