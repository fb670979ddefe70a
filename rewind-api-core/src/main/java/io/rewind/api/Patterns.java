package io.rewind.api;

import io.rewind.api.spi.RankBinding;
import io.rewind.api.spi.RankPatterns;

/**
 * Communication patterns: a program declares the loops whose iterations exchange messages with
 * anonymous receives ({@code ANY_SOURCE}), and marks where each iteration begins and ends. Every
 * point-to-point send and every receive or probe carries the (pattern id, iteration id) active when it
 * was posted, and a message matches a receive or probe only if both ids are equal (besides
 * communicator, source and tag). So a message of iteration n+1 is never taken by a receive of
 * iteration n, even when a recovering rank gets messages replayed long after they were sent. Protocols
 * that replay by pattern (such as {@code spbc}) rely on this.
 *
 * <p>Communication outside any declared pattern carries (0, 0), the default pattern, and matches as
 * in plain MPI; a program that never calls this API behaves as without it. Collectives ignore patterns.
 * None of these calls communicates: an SPMD program declares its patterns in the same order on every
 * rank, so their ids agree. Patterns do not nest.
 *
 * <pre>{@code
 * int exchange = Patterns.declare();       // once, after MPI.Init, on every rank
 * Checkpointer cp = Checkpointer.get();
 * cp.restore();                            // a restarted rank continues the iteration ids
 * while (step[0] < steps) {
 *     cp.point();
 *     Patterns.beginIteration(exchange);
 *     // send requests to data-dependent ranks, answer iProbe(ANY_SOURCE) requests, iBarrier ...
 *     Patterns.endIteration(exchange);
 *     step[0]++;
 * }
 * }</pre>
 *
 * The iteration ids and the active pattern are part of a rank's checkpoint: a restarted rank declares
 * its patterns again and, once restored, continues with the iteration ids the checkpoint holds. A
 * checkpoint point may also lie inside an iteration: the restored rank is then in that iteration again,
 * and the {@code beginIteration} it makes again on its way back to that point keeps the iteration's id.
 *
 * <p>Without the Rewind runtime (the program run with plain {@code java} and the API jar only) the
 * ids are counted and the calls checked as under Rewind, and nothing else happens.
 */
public final class Patterns {
    /** The patterns of a run without the runtime; unused under Rewind. */
    private static final RankPatterns OUTSIDE_REWIND = new PatternsOutsideRewind();

    private Patterns() {}

    /** A new pattern id: 1, 2, 3 ... in the order of the calls on this rank. */
    public static int declare() {
        return state().declare();
    }

    /**
     * Starts the next iteration of {@code pattern} (the first is 1): until {@link #endIteration}, what
     * this rank sends and receives point to point carries this pattern and iteration.
     *
     * @throws IllegalArgumentException if {@code pattern} was not declared
     * @throws IllegalStateException if a pattern is active already (patterns do not nest)
     */
    public static void beginIteration(int pattern) {
        state().begin(pattern);
    }

    /**
     * Ends the iteration of {@code pattern} that {@link #beginIteration} began: the default pattern
     * (0, 0) is active again. Requests posted during the iteration keep its ids.
     *
     * @throws IllegalArgumentException if {@code pattern} was not declared
     * @throws IllegalStateException if {@code pattern} is not the active pattern
     */
    public static void endIteration(int pattern) {
        state().end(pattern);
    }

    /** The iteration id of {@code pattern} last begun (0 before its first iteration). */
    public static int iteration(int pattern) {
        return state().iteration(pattern);
    }

    /** The active pattern id, 0 outside any pattern. */
    public static int active() {
        return state().active();
    }

    private static RankPatterns state() {
        // Looked up at every call: these calls are rare, and a restarted rank has a new engine.
        RankBinding binding = Binding.get();
        return binding == null ? OUTSIDE_REWIND : binding.patterns();
    }
}
