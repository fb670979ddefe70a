package mpi;

/**
 * The neighbours of one process in a topology, as the neighbourhood collectives use them: receive
 * block {@code i} comes from {@code sources[i]}, send block {@code j} goes to {@code
 * destinations[j]}, and the sends are posted in the order {@code sendOrder} lists the blocks.
 * {@code MPI.PROC_NULL} entries (past the edge of a non-periodic Cartesian dimension) take no part.
 *
 * <p>The send order matters only when a process is listed several times: messages between two
 * processes on one tag are matched in the order they are sent, so the sender must post the block that
 * the receiver expects first, first (see {@link CartTopology#neighbours}).
 */
record Neighbours(int[] sources, int[] destinations, int[] sendOrder) {
    /** Neighbours whose blocks are sent in list order. */
    static Neighbours inOrder(int[] sources, int[] destinations) {
        int[] order = new int[destinations.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        return new Neighbours(sources, destinations, order);
    }
}
