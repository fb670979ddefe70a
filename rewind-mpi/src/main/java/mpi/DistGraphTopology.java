package mpi;

import io.rewind.engine.Collectives;
import io.rewind.engine.Communicator;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The edges into and out of one process of a distributed graph topology ({@code
 * MPI_DIST_GRAPH_CREATE} and {@code MPI_DIST_GRAPH_CREATE_ADJACENT}). Creation is collective: every
 * process gathers what all processes declared (an all-gather over the parent communicator, logged and
 * replayed like any collective, so a restarted rank that creates the graph again gets the same
 * edges), keeps its own in- and out-edges and checks the declarations agree, so a mismatch is an
 * error on every process rather than a neighbourhood collective that never completes.
 */
final class DistGraphTopology {
    /** A declared edge travels as four ints: kind, source, destination, weight. */
    private static final int FIELDS = 4;

    private static final int OUT_EDGE = 0;
    private static final int IN_EDGE = 1;

    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;
    private final boolean weighted;

    private DistGraphTopology(
            int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights, boolean weighted) {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destWeights = destWeights;
        this.weighted = weighted;
    }

    DistGraphNeighbors neighbors() {
        return new DistGraphNeighbors(
                sources.clone(), sourceWeights.clone(), destinations.clone(), destWeights.clone(), weighted);
    }

    Neighbours neighbours() {
        return Neighbours.inOrder(sources.clone(), destinations.clone());
    }

    /**
     * {@code MPI_DIST_GRAPH_CREATE}: this process declares, for each {@code sources[i]}, {@code
     * degrees[i]} edges to the next entries of {@code destinations} ({@code weights == null}: no
     * weights). A process's out-edges, and in-edges, are ordered by declaring process, then by place in
     * its declaration, so the k-th edge a-b at a is the k-th at b.
     */
    static DistGraphTopology declared(Intracomm parent, int[] sources, int[] degrees, int[] destinations, int[] weights)
            throws MPIException {
        Communicator c = parent.comm();
        int n = c.size();
        if (sources == null || degrees == null || destinations == null) {
            throw Failures.error(MPI.ERR_ARG, "sources, degrees and destinations must not be null");
        }
        if (degrees.length < sources.length) {
            throw Failures.error(
                    MPI.ERR_ARG, sources.length + " sources but only " + degrees.length + " degrees: one per source");
        }
        long total = 0;
        for (int i = 0; i < sources.length; i++) {
            checkRank(sources[i], n, "sources[" + i + "]");
            if (degrees[i] < 0) {
                throw Failures.error(MPI.ERR_ARG, "degrees[" + i + "] is negative: " + degrees[i]);
            }
            total += degrees[i];
        }
        if (total > destinations.length) {
            throw Failures.error(
                    MPI.ERR_ARG, "the degrees add up to " + total + " but destinations holds " + destinations.length);
        }
        checkWeights(weights, (int) total, "weights");
        int[] mine = new int[(int) total * FIELDS];
        int e = 0;
        for (int i = 0; i < sources.length; i++) {
            for (int k = 0; k < degrees[i]; k++, e++) {
                checkRank(destinations[e], n, "destinations[" + e + "]");
                put(mine, e, OUT_EDGE, sources[i], destinations[e], weights == null ? 1 : weights[e]);
            }
        }
        int[][] all = gather(parent, mine, weights != null);
        return keep(all, c.rank(), OUT_EDGE, OUT_EDGE, weights != null);
    }

    /**
     * {@code MPI_DIST_GRAPH_CREATE_ADJACENT}: this process gives its own in- and out-edges, in the
     * order it wants them. Every edge a-b must be given by both a (as a destination) and b (as a
     * source), as often at one end as at the other.
     */
    static DistGraphTopology adjacent(
            Intracomm parent,
            int[] sources,
            int[] sourceWeights,
            int[] destinations,
            int[] destWeights,
            boolean weighted)
            throws MPIException {
        Communicator c = parent.comm();
        int n = c.size();
        int me = c.rank();
        if (sources == null || destinations == null) {
            throw Failures.error(MPI.ERR_ARG, "sources and destinations must not be null");
        }
        if (weighted) {
            checkWeights(sourceWeights, sources.length, "sourceWeights");
            checkWeights(destWeights, destinations.length, "destWeights");
        }
        int[] mine = new int[(sources.length + destinations.length) * FIELDS];
        int e = 0;
        for (int i = 0; i < sources.length; i++, e++) {
            checkRank(sources[i], n, "sources[" + i + "]");
            put(mine, e, IN_EDGE, sources[i], me, weighted ? sourceWeights[i] : 1);
        }
        for (int i = 0; i < destinations.length; i++, e++) {
            checkRank(destinations[i], n, "destinations[" + i + "]");
            put(mine, e, OUT_EDGE, me, destinations[i], weighted ? destWeights[i] : 1);
        }
        int[][] all = gather(parent, mine, weighted);
        checkBothEndsAgree(all);
        return keep(all, me, IN_EDGE, OUT_EDGE, weighted);
    }

    private static void checkRank(int rank, int n, String what) throws MPIException {
        if (rank < 0 || rank >= n) {
            throw Failures.error(MPI.ERR_RANK, what + " is " + rank + ", not a rank of a communicator of " + n);
        }
    }

    private static void checkWeights(int[] weights, int needed, String what) throws MPIException {
        if (weights == null) {
            return;
        }
        if (weights.length < needed) {
            throw Failures.error(MPI.ERR_ARG, what + " holds " + weights.length + " weights for " + needed + " edges");
        }
        for (int i = 0; i < needed; i++) {
            if (weights[i] < 0) {
                throw Failures.error(MPI.ERR_ARG, what + "[" + i + "] is negative: " + weights[i]);
            }
        }
    }

    private static void put(int[] into, int edge, int kind, int source, int destination, int weight) {
        int at = edge * FIELDS;
        into[at] = kind;
        into[at + 1] = source;
        into[at + 2] = destination;
        into[at + 3] = weight;
    }

    /**
     * All processes' declarations, indexed by rank; {@code ERR_ARG} on every process if some gave
     * weights and others did not (the standard requires all or none).
     */
    private static int[][] gather(Intracomm parent, int[] mine, boolean weighted) throws MPIException {
        Communicator c = parent.comm();
        int n = c.size();
        int[] header = {mine.length, weighted ? 1 : 0};
        int[] headers = new int[2 * n];
        parent.collective(
                false,
                "distgraph-counts",
                tag -> Collectives.allGather(
                        c, tag, MemorySegment.ofArray(header), 0, MemorySegment.ofArray(headers), 0, 8));
        long[] bytes = new long[n];
        long[] displs = new long[n];
        long at = 0;
        int weightedCount = 0;
        for (int r = 0; r < n; r++) {
            bytes[r] = headers[2 * r] * 4L;
            displs[r] = at;
            at += bytes[r];
            weightedCount += headers[2 * r + 1];
        }
        int[] everything = new int[Math.toIntExact(at / 4)];
        parent.collective(
                false,
                "distgraph-edges",
                tag -> Collectives.allGatherv(
                        c,
                        tag,
                        MemorySegment.ofArray(mine),
                        0,
                        mine.length * 4L,
                        MemorySegment.ofArray(everything),
                        0,
                        bytes,
                        displs));
        if (weightedCount != 0 && weightedCount != n) {
            throw Failures.error(
                    MPI.ERR_ARG, weightedCount + " of " + n + " processes gave edge weights: all or none must");
        }
        int[][] all = new int[n][];
        for (int r = 0; r < n; r++) {
            all[r] = Arrays.copyOfRange(everything, (int) (displs[r] / 4), (int) ((displs[r] + bytes[r]) / 4));
        }
        return all;
    }

    /** Every edge a-b given as many times by a (out-edge) as by b (in-edge), or ERR_TOPOLOGY everywhere. */
    private static void checkBothEndsAgree(int[][] all) throws MPIException {
        Map<Long, Integer> balance = new HashMap<>();
        for (int[] declared : all) {
            for (int at = 0; at < declared.length; at += FIELDS) {
                long key = (long) declared[at + 1] << 32 | declared[at + 2];
                balance.merge(key, declared[at] == OUT_EDGE ? 1 : -1, Integer::sum);
            }
        }
        for (Map.Entry<Long, Integer> e : balance.entrySet()) {
            if (e.getValue() != 0) {
                long key = e.getKey();
                throw Failures.error(
                        MPI.ERR_TOPOLOGY,
                        "edge " + (key >>> 32) + " -> " + (int) key + " is given " + Math.abs(e.getValue())
                                + " more time(s) as " + (e.getValue() > 0 ? "a destination" : "a source")
                                + " than at its other end");
            }
        }
    }

    /**
     * This process's edges from all declarations, in rank then declaration order: in-edges from the
     * entries of kind {@code inKind} whose destination is {@code me}, out-edges from those of kind
     * {@code outKind} whose source is {@code me}.
     */
    private static DistGraphTopology keep(int[][] all, int me, int inKind, int outKind, boolean weighted) {
        EdgeList in = new EdgeList();
        EdgeList out = new EdgeList();
        for (int[] declared : all) {
            for (int at = 0; at < declared.length; at += FIELDS) {
                int kind = declared[at];
                int source = declared[at + 1];
                int destination = declared[at + 2];
                int weight = declared[at + 3];
                if (kind == inKind && destination == me) {
                    in.add(source, weight);
                }
                if (kind == outKind && source == me) {
                    out.add(destination, weight);
                }
            }
        }
        return new DistGraphTopology(in.peers(), in.weights(), out.peers(), out.weights(), weighted);
    }

    /** A growing list of (peer, weight) pairs. */
    private static final class EdgeList {
        private int[] peers = new int[4];
        private int[] weights = new int[4];
        private int size;

        void add(int peer, int weight) {
            if (size == peers.length) {
                peers = Arrays.copyOf(peers, size * 2);
                weights = Arrays.copyOf(weights, size * 2);
            }
            peers[size] = peer;
            weights[size] = weight;
            size++;
        }

        int[] peers() {
            return Arrays.copyOf(peers, size);
        }

        int[] weights() {
            return Arrays.copyOf(weights, size);
        }
    }
}
