package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Level-synchronous breadth-first search on a Kronecker graph, shaped like Graph500. The graph has
 * {@code 2^scale} vertices and {@code edgeFactor * 2^scale} undirected edges drawn with the Graph500
 * initiator probabilities (A=0.57, B=0.19, C=0.19) and a fixed relabelling ({@link #edge}); every
 * rank draws all edges from the seed and keeps the adjacency of its vertices (vertex v belongs to
 * rank {@code v mod size}). One iteration is one search from the next root.
 *
 * <p>Communication per BFS level: an allToAll of how many vertices each rank discovered for each
 * other rank, then iRecv/iSend/waitAll of those lists to the ranks that have some (destinations
 * depend on the graph and the frontier), then an allReduce of the next frontier's size.
 *
 * <p>Checksum: per search, the vertices reached and the sum of their levels (exact integers, the
 * same whatever the rank count or the order discoveries arrive in), folded over the roots.
 *
 * <p>Usage: {@code GraphBfs [scale] [edgeFactor] [roots] [seed]}. Rank 0 prints
 * {@code bfs scale=.. edgefactor=.. roots=.. reached=.. checksum=<hex>}.
 */
public final class GraphBfs {
    private static final int TAG_FRONTIER = 31;

    private GraphBfs() {}

    /** Edge e of the graph as {from, to} (may be a self loop; those are ignored). */
    static int[] edge(int scale, long seed, long e) {
        SplittableRandom rnd = new SplittableRandom(Workloads.mix(seed, e));
        int i = 0;
        int j = 0;
        for (int bit = 0; bit < scale; bit++) {
            double p = rnd.nextDouble();
            int ib = p >= 0.57 + 0.19 ? 1 : 0; // C or D: lower half
            int jb = (p >= 0.57 && p < 0.76) || p >= 0.95 ? 1 : 0; // B or D: right half
            i = (i << 1) | ib;
            j = (j << 1) | jb;
        }
        return new int[] {relabel(i, scale, seed), relabel(j, scale, seed)};
    }

    /** A bijection of [0, 2^scale) that spreads the high-degree vertices over the ranks. */
    static int relabel(int v, int scale, long seed) {
        long mask = (1L << scale) - 1;
        long odd = (Workloads.mix(seed, -1) | 1) & mask;
        long add = Workloads.mix(seed, -2) & mask;
        long x = (v * odd + add) & mask;
        x ^= x >>> Math.max(1, scale / 2);
        return (int) x;
    }

    /** The k-th root: a vertex with at least one edge, drawn from the seed. */
    static int root(int k, int n, int[] degree, long seed) {
        for (long t = 0; ; t++) {
            int v = (int) Long.remainderUnsigned(Workloads.mix(seed, k, t), n);
            if (degree[v] > 0) {
                return v;
            }
        }
    }

    /** Folds one search's figures into the checksum. */
    static long fold(long checksum, long reached, long levelSum) {
        return checksum * 1_000_003L + reached * 31 + levelSum;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int scale = Workloads.intArg(args, 0, 14);
        int edgeFactor = Workloads.intArg(args, 1, 16);
        int roots = Workloads.intArg(args, 2, 8);
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 1;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int n = 1 << scale;
        long m = (long) edgeFactor * n;
        // Adjacency of the vertices of this rank (local index v / size), compressed rows.
        int local = (n - rank + size - 1) / size;
        int[] degree = new int[n];
        for (long e = 0; e < m; e++) {
            int[] ft = edge(scale, seed, e);
            if (ft[0] != ft[1]) {
                degree[ft[0]]++;
                degree[ft[1]]++;
            }
        }
        int[] start = new int[local + 1];
        for (int l = 0; l < local; l++) {
            start[l + 1] = start[l] + degree[l * size + rank];
        }
        int[] adj = new int[start[local]];
        int[] fill = Arrays.copyOf(start, local);
        for (long e = 0; e < m; e++) { // drawn again rather than kept: less memory per rank
            int[] ft = edge(scale, seed, e);
            if (ft[0] == ft[1]) {
                continue;
            }
            for (int s = 0; s < 2; s++) {
                int v = ft[s];
                if (v % size == rank) {
                    adj[fill[v / size]++] = ft[1 - s];
                }
            }
        }

        long[] state = new long[3]; // searches done, checksum, vertices reached in all searches
        Checkpointer cp = Checkpointer.get();
        cp.register("state", state);
        cp.restore();
        int[] level = new int[local];
        int[] sendCounts = new int[size];
        int[] recvCounts = new int[size];
        while (state[0] < roots) {
            cp.point();
            int root = root((int) state[0], n, degree, seed);
            Arrays.fill(level, -1);
            IntList frontier = new IntList();
            if (root % size == rank) {
                level[root / size] = 0;
                frontier.add(root / size);
            }
            long[] totals = {root % size == rank ? 1 : 0, 0}; // reached, level sum (local)
            long[] more = new long[1];
            for (int depth = 0; ; depth++) {
                IntList[] out = new IntList[size];
                for (int r = 0; r < size; r++) {
                    out[r] = new IntList();
                }
                IntList next = new IntList();
                for (int i = 0; i < frontier.size; i++) {
                    int l = frontier.at[i];
                    for (int a = start[l]; a < start[l + 1]; a++) {
                        int w = adj[a];
                        int owner = w % size;
                        if (owner == rank) {
                            visit(w / size, depth + 1, level, next, totals);
                        } else {
                            out[owner].add(w);
                        }
                    }
                }
                for (int r = 0; r < size; r++) {
                    sendCounts[r] = out[r].size;
                }
                MPI.COMM_WORLD.allToAll(sendCounts, 1, MPI.INT, recvCounts, 1, MPI.INT);
                List<Request> reqs = new ArrayList<>();
                IntBuffer[] in = new IntBuffer[size];
                for (int r = 0; r < size; r++) {
                    if (recvCounts[r] > 0) {
                        in[r] = MPI.newIntBuffer(recvCounts[r]);
                        reqs.add(MPI.COMM_WORLD.iRecv(in[r], recvCounts[r], MPI.INT, r, TAG_FRONTIER));
                    }
                }
                for (int r = 0; r < size; r++) {
                    if (sendCounts[r] > 0) {
                        IntBuffer b = MPI.newIntBuffer(sendCounts[r]);
                        b.put(out[r].at, 0, sendCounts[r]);
                        reqs.add(MPI.COMM_WORLD.iSend(b, sendCounts[r], MPI.INT, r, TAG_FRONTIER));
                    }
                }
                Request.waitAll(reqs.toArray(new Request[0]));
                for (int r = 0; r < size; r++) {
                    for (int i = 0; i < recvCounts[r]; i++) {
                        visit(in[r].get(i) / size, depth + 1, level, next, totals);
                    }
                }
                more[0] = next.size;
                MPI.COMM_WORLD.allReduce(more, 1, MPI.LONG, MPI.SUM);
                if (more[0] == 0) {
                    break;
                }
                frontier = next;
            }
            MPI.COMM_WORLD.allReduce(totals, 2, MPI.LONG, MPI.SUM);
            state[1] = fold(state[1], totals[0], totals[1]);
            state[2] += totals[0];
            state[0]++;
        }
        if (rank == 0) {
            System.out.printf(
                    "bfs scale=%d edgefactor=%d roots=%d reached=%d checksum=%016x%n",
                    scale, edgeFactor, roots, state[2], state[1]);
        }
        MPI.Finalize();
    }

    private static void visit(int l, int depth, int[] level, IntList next, long[] totals) {
        if (level[l] < 0) {
            level[l] = depth;
            next.add(l);
            totals[0]++;
            totals[1] += depth;
        }
    }

    /** A growable int list. */
    private static final class IntList {
        int[] at = new int[16];
        int size;

        void add(int v) {
            if (size == at.length) {
                at = Arrays.copyOf(at, size * 2);
            }
            at[size++] = v;
        }
    }
}
