package mpi.conformance.topo;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.GraphComm;
import mpi.GraphParms;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI standard chapter 7: general graph topologies. Every rank builds the same graph (a ring with
 * spokes to node 0, so at 1 and 2 ranks a node is its own neighbour or lists a neighbour twice),
 * checks what the communicator reports against the graph it built, and runs the neighbourhood
 * collectives, deriving what each neighbour must have sent from the neighbour's rank.
 */
@Tag("conformance")
class GraphTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void ringWithSpokesGraph(int ranks) {
        runOk(RingWithSpokes.class, ranks);
    }

    /** Adjacency lists: ring neighbours (i-1, i+1), plus spokes between node 0 and every other node. */
    static List<List<Integer>> ringWithSpokes(int n) {
        List<List<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<Integer> a = new ArrayList<>();
            a.add(Math.floorMod(i - 1, n));
            a.add((i + 1) % n);
            adj.add(a);
        }
        for (int j = 1; j < n; j++) {
            adj.get(0).add(j);
            adj.get(j).add(0);
        }
        return adj;
    }

    static int[] index(List<List<Integer>> adj) {
        int[] index = new int[adj.size()];
        int total = 0;
        for (int i = 0; i < adj.size(); i++) {
            total += adj.get(i).size();
            index[i] = total;
        }
        return index;
    }

    static int[] edges(List<List<Integer>> adj) {
        return adj.stream().flatMap(List::stream).mapToInt(Integer::intValue).toArray();
    }

    /** Position of the k-th occurrence (from 0) of {@code value} in {@code list}. */
    static int kth(List<Integer> list, int value, int k) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) == value && k-- == 0) {
                return i;
            }
        }
        throw new AssertionError(value + " is not listed " + (k + 1) + " times in " + list);
    }

    /** How many times {@code value} occurs in {@code list} before position {@code at}. */
    static int occurrencesBefore(List<Integer> list, int value, int at) {
        int k = 0;
        for (int i = 0; i < at; i++) {
            k += list.get(i) == value ? 1 : 0;
        }
        return k;
    }

    public static final class RingWithSpokes {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int n = w.getSize();
            int me = w.getRank();
            List<List<Integer>> adj = ringWithSpokes(n);
            int[] index = index(adj);
            int[] edges = edges(adj);
            GraphComm g = w.createGraph(index, edges, true);
            check(!g.isNull(), "every rank is a node");
            checkEq(MPI.GRAPH, g.getTopology(), "a graph communicator");
            checkEq(n, g.getSize(), "graph size");
            checkEq(me, g.getRank(), "no reordering");

            GraphParms p = g.getDims();
            checkEq(n, p.getIndexCount(), "node count");
            checkEq(edges.length, p.getEdgeCount(), "edge count");
            for (int i = 0; i < n; i++) {
                checkEq(index[i], p.getIndex(i), "index " + i);
            }
            for (int e = 0; e < edges.length; e++) {
                checkEq(edges[e], p.getEdge(e), "edge " + e);
            }
            for (int r = 0; r < n; r++) {
                int[] expected = adj.get(r).stream().mapToInt(Integer::intValue).toArray();
                check(Arrays.equals(expected, g.getNeighbors(r)), "neighbours of " + r);
            }
            checkEq(me, g.map(index, edges), "map keeps the rank");
            expectError(MPI.ERR_RANK, "neighbours of a missing node", () -> g.getNeighbors(n));
            expectError(MPI.ERR_TOPOLOGY, "a general graph has no dist-graph neighbours", g::getDistGraphNeighbors);
            expectError(
                    MPI.ERR_ARG, "index decreasing", () -> w.createGraph(new int[] {2, 1}, new int[] {0, 0}, false));
            expectError(
                    MPI.ERR_RANK, "edge to a missing node", () -> w.createGraph(new int[] {1}, new int[] {1}, false));
            expectError(
                    MPI.ERR_ARG, "more nodes than processes", () -> w.createGraph(new int[n + 1], new int[0], false));
            expectError(MPI.ERR_ARG, "too few edges", () -> w.createGraph(new int[] {3}, new int[] {0}, false));

            List<Integer> mine = adj.get(me);
            int k = mine.size();

            // all-gather: block i holds neighbour i's two items
            int[] send = {me * 10 + 1, me * 10 + 2};
            int[] got = new int[2 * k];
            g.neighborAllGather(send, 2, MPI.INT, got, 2, MPI.INT);
            for (int i = 0; i < k; i++) {
                int nb = mine.get(i);
                check(got[2 * i] == nb * 10 + 1 && got[2 * i + 1] == nb * 10 + 2, "allGather block " + i);
            }

            // all-to-all: neighbour nb sent us its block j, where we are the matching occurrence in its list
            int[] out = new int[k];
            for (int j = 0; j < k; j++) {
                out[j] = me * 1000 + j;
            }
            int[] in = new int[k];
            g.neighborAllToAll(out, 1, MPI.INT, in, 1, MPI.INT);
            for (int i = 0; i < k; i++) {
                checkEq(expectedBlock(adj, me, i), in[i], "allToAll block " + i);
            }

            // the same, non-blocking, on a duplicate
            GraphComm copy = g.dup();
            checkEq(MPI.GRAPH, copy.getTopology(), "dup keeps the graph");
            IntBuffer outBuf = MPI.newIntBuffer(k);
            IntBuffer inBuf = MPI.newIntBuffer(k);
            for (int j = 0; j < k; j++) {
                outBuf.put(j, out[j]);
            }
            Request r = copy.iNeighborAllToAll(outBuf, 1, MPI.INT, inBuf, 1, MPI.INT);
            r.waitFor();
            for (int i = 0; i < k; i++) {
                checkEq(expectedBlock(adj, me, i), inBuf.get(i), "iNeighborAllToAll block " + i);
            }

            // a graph that is not symmetric cannot run a neighbourhood collective
            if (n > 1) {
                int[] idx = new int[n];
                Arrays.fill(idx, 1);
                GraphComm skew = w.createGraph(idx, new int[] {1}, false); // only 0 -> 1
                expectError(
                        MPI.ERR_TOPOLOGY,
                        "asymmetric graph",
                        () -> skew.neighborAllGather(send, 2, MPI.INT, new int[2], 2, MPI.INT));
                skew.free();
            }

            // a line over all ranks but the last: the last rank is left out
            int m = Math.max(1, n - 1);
            List<List<Integer>> line = new ArrayList<>();
            for (int i = 0; i < m; i++) {
                List<Integer> a = new ArrayList<>();
                if (i > 0) {
                    a.add(i - 1);
                }
                if (i < m - 1) {
                    a.add(i + 1);
                }
                line.add(a);
            }
            GraphComm lineComm = w.createGraph(index(line), edges(line), false);
            checkEq(me < m ? me : MPI.UNDEFINED, g.map(index(line), edges(line)), "map onto the line");
            if (me >= m) {
                check(lineComm.isNull(), "the rank outside the line gets a null communicator");
            } else {
                int[] sum = {me};
                lineComm.allReduce(sum, 1, MPI.INT, MPI.SUM);
                checkEq((long) m * (m - 1) / 2, sum[0], "sum over the line");
                lineComm.free();
            }

            long checksum = 0;
            for (int v : in) {
                checksum = checksum * 31 + v;
            }
            System.out.println("graph rank " + me + " degree " + k + " checksum " + checksum);
            copy.free();
            g.free();
            MPI.Finalize();
        }

        /** What neighbour i of {@code me} sent it in a neighbourhood all-to-all of blocks x*1000 + j. */
        static int expectedBlock(List<List<Integer>> adj, int me, int i) {
            List<Integer> mine = adj.get(me);
            int nb = mine.get(i);
            int occurrence = occurrencesBefore(mine, nb, i);
            return nb * 1000 + kth(adj.get(nb), me, occurrence);
        }
    }
}
