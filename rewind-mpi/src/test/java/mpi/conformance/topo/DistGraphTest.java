package mpi.conformance.topo;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;

import java.util.ArrayList;
import java.util.List;
import mpi.DistGraphNeighbors;
import mpi.GraphComm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI standard chapter 7: distributed graph topologies. Each rank declares some edges of its own and
 * one on behalf of another rank; every rank works out from the whole declaration what its in- and
 * out-edges must be, checks them, and runs the neighbourhood collectives on the graph.
 */
@Tag("conformance")
class DistGraphTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void declaredEdges(int ranks) {
        runOk(Declared.class, ranks);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void adjacentEdges(int ranks) {
        runOk(Adjacent.class, ranks);
    }

    /** An edge source -> destination with a weight. */
    record Edge(int source, int destination, int weight) {}

    /**
     * What rank r declares: edges r -> r+1 and r -> r+2, and, on behalf of rank r+1, r+1 -> r (all
     * modulo n).
     */
    static List<Edge> declaredBy(int r, int n) {
        return List.of(
                new Edge(r, (r + 1) % n, r * 10 + 1),
                new Edge(r, (r + 2) % n, r * 10 + 2),
                new Edge((r + 1) % n, r, 500 + r));
    }

    /** All edges, in the order Rewind lists them: by declaring rank, then declaration order. */
    static List<Edge> allEdges(int n) {
        List<Edge> all = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            all.addAll(declaredBy(r, n));
        }
        return all;
    }

    static List<Edge> outOf(int x, List<Edge> all) {
        return all.stream().filter(e -> e.source() == x).toList();
    }

    static List<Edge> into(int x, List<Edge> all) {
        return all.stream().filter(e -> e.destination() == x).toList();
    }

    public static final class Declared {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int n = w.getSize();
            int me = w.getRank();
            List<Edge> mine = declaredBy(me, n);
            int[] sources = {me, (me + 1) % n};
            int[] degrees = {2, 1};
            int[] destinations = mine.stream().mapToInt(Edge::destination).toArray();
            int[] weights = mine.stream().mapToInt(Edge::weight).toArray();
            GraphComm g = w.createDistGraph(sources, degrees, destinations, weights, MPI.INFO_NULL, true);
            checkEq(MPI.DIST_GRAPH, g.getTopology(), "a distributed graph communicator");
            checkEq(me, g.getRank(), "no reordering");
            List<Edge> all = allEdges(n);
            List<Edge> in = into(me, all);
            List<Edge> out = outOf(me, all);
            DistGraphNeighbors nb = g.getDistGraphNeighbors();
            check(nb.isWeighted(), "weighted");
            checkEq(in.size(), nb.getInDegree(), "in-degree");
            checkEq(out.size(), nb.getOutDegree(), "out-degree");
            for (int i = 0; i < in.size(); i++) {
                checkEq(in.get(i).source(), nb.getSource(i), "source " + i);
                checkEq(in.get(i).weight(), nb.getSourceWeight(i), "source weight " + i);
            }
            for (int j = 0; j < out.size(); j++) {
                checkEq(out.get(j).destination(), nb.getDestination(j), "destination " + j);
                checkEq(out.get(j).weight(), nb.getDestinationWeight(j), "destination weight " + j);
            }
            expectError(MPI.ERR_TOPOLOGY, "a distributed graph has no getDims", g::getDims);
            expectError(MPI.ERR_TOPOLOGY, "nor getNeighbors", () -> g.getNeighbors(0));

            // all-gather: block i comes from in-edge i's source
            int[] got = new int[in.size()];
            g.neighborAllGather(new int[] {me * 100 + 7}, 1, MPI.INT, got, 1, MPI.INT);
            for (int i = 0; i < in.size(); i++) {
                checkEq(in.get(i).source() * 100 + 7, got[i], "allGather block " + i);
            }

            // all-to-all: the k-th in-edge from s is the k-th out-edge of s to us
            long[] send = new long[out.size()];
            for (int j = 0; j < send.length; j++) {
                send[j] = me * 1000L + j;
            }
            long[] recv = new long[in.size()];
            g.neighborAllToAll(send, 1, MPI.LONG, recv, 1, MPI.LONG);
            for (int i = 0; i < in.size(); i++) {
                int s = in.get(i).source();
                int k = 0;
                for (int p = 0; p < i; p++) {
                    k += in.get(p).source() == s ? 1 : 0;
                }
                List<Edge> sOut = outOf(s, all);
                int j = -1;
                for (int q = 0, seen = 0; q < sOut.size(); q++) {
                    if (sOut.get(q).destination() == me && seen++ == k) {
                        j = q;
                        break;
                    }
                }
                checkEq(s * 1000L + j, recv[i], "allToAll block " + i);
            }

            // without weights: every edge weighs 1
            GraphComm plain = w.createDistGraph(sources, degrees, destinations, MPI.INFO_NULL, false);
            DistGraphNeighbors pn = plain.getDistGraphNeighbors();
            check(!pn.isWeighted(), "unweighted");
            checkEq(in.size(), pn.getInDegree(), "unweighted in-degree");
            for (int i = 0; i < in.size(); i++) {
                checkEq(1, pn.getSourceWeight(i), "unweighted source weight " + i);
            }

            // bad arguments, all found before any communication
            expectError(
                    MPI.ERR_RANK,
                    "a source out of range",
                    () -> w.createDistGraph(new int[] {n}, new int[] {0}, new int[0], MPI.INFO_NULL, false));
            expectError(
                    MPI.ERR_RANK,
                    "a destination out of range",
                    () -> w.createDistGraph(new int[] {me}, new int[] {1}, new int[] {-1}, MPI.INFO_NULL, false));
            expectError(
                    MPI.ERR_ARG,
                    "fewer degrees than sources",
                    () -> w.createDistGraph(new int[] {me}, new int[0], new int[0], MPI.INFO_NULL, false));
            expectError(
                    MPI.ERR_ARG,
                    "degrees beyond the destinations",
                    () -> w.createDistGraph(new int[] {me}, new int[] {2}, new int[] {me}, MPI.INFO_NULL, false));
            expectError(
                    MPI.ERR_ARG,
                    "too few weights",
                    () -> w.createDistGraph(
                            new int[] {me}, new int[] {1}, new int[] {me}, new int[0], MPI.INFO_NULL, false));
            if (n > 1) {
                // weights from rank 0 only: every rank learns it from the gathered declarations
                expectError(MPI.ERR_ARG, "weights from some ranks only", () -> {
                    if (me == 0) {
                        w.createDistGraph(new int[0], new int[0], new int[0], new int[0], MPI.INFO_NULL, false);
                    } else {
                        w.createDistGraph(new int[0], new int[0], new int[0], MPI.INFO_NULL, false);
                    }
                });
            }
            long checksum = 0;
            for (long v : recv) {
                checksum = checksum * 31 + v;
            }
            System.out.println(
                    "dist graph rank " + me + " in " + in.size() + " out " + out.size() + " checksum " + checksum);
            plain.free();
            g.free();
            MPI.Finalize();
        }
    }

    /** A directed ring given adjacently, with weights and without; neighborAllToAllv with varying counts. */
    public static final class Adjacent {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int n = w.getSize();
            int me = w.getRank();
            int prev = Math.floorMod(me - 1, n);
            int next = (me + 1) % n;
            // in-edges from prev and next+... a ring both ways: in from prev and next, out to next and prev
            int[] sources = {prev, next};
            int[] destinations = {next, prev};
            int[] sourceWeights = {prev + 1, next + 1};
            int[] destWeights = {me + 1, me + 1};
            GraphComm g =
                    w.createDistGraphAdjacent(sources, sourceWeights, destinations, destWeights, MPI.INFO_NULL, false);
            checkEq(MPI.DIST_GRAPH, g.getTopology(), "a distributed graph communicator");
            DistGraphNeighbors nb = g.getDistGraphNeighbors();
            check(nb.isWeighted(), "weighted");
            checkEq(2, nb.getInDegree(), "in-degree");
            checkEq(2, nb.getOutDegree(), "out-degree");
            for (int i = 0; i < 2; i++) {
                checkEq(sources[i], nb.getSource(i), "source " + i);
                checkEq(sourceWeights[i], nb.getSourceWeight(i), "source weight " + i);
                checkEq(destinations[i], nb.getDestination(i), "destination " + i);
                checkEq(destWeights[i], nb.getDestinationWeight(i), "destination weight " + i);
            }

            // sender x sends x+1+j items to its destination j; block i of ours comes from sources[i].
            // Edges to next are listed first at the sender and the edge from prev first at the receiver,
            // so block 0 (from prev) is prev's block 0 and block 1 (from next) is next's block 1.
            int[] sendcounts = {me + 1, me + 2};
            int[] sdispls = {0, me + 1};
            double[] send = new double[2 * me + 3];
            for (int j = 0; j < 2; j++) {
                for (int t = 0; t < sendcounts[j]; t++) {
                    send[sdispls[j] + t] = me * 100 + j * 10 + t;
                }
            }
            int[] recvcounts = {prev + 1, next + 2};
            int[] rdispls = {1, prev + 3}; // a gap before each block
            double[] recv = new double[prev + next + 5];
            java.util.Arrays.fill(recv, -1);
            g.neighborAllToAllv(send, sendcounts, sdispls, MPI.DOUBLE, recv, recvcounts, rdispls, MPI.DOUBLE);
            checkEq(-1, (long) recv[0], "the gap before block 0 is untouched");
            checkEq(-1, (long) recv[prev + 2], "the gap before block 1 is untouched");
            int[] from = {prev, next};
            for (int i = 0; i < 2; i++) {
                for (int t = 0; t < recvcounts[i]; t++) {
                    checkEq(from[i] * 100 + i * 10 + t, (long) recv[rdispls[i] + t], "block " + i + " item " + t);
                }
            }

            GraphComm plain = w.createDistGraphAdjacent(sources, destinations, MPI.INFO_NULL, false);
            check(!plain.getDistGraphNeighbors().isWeighted(), "unweighted");
            int[] got = new int[2];
            plain.neighborAllGather(new int[] {me}, 1, MPI.INT, got, 1, MPI.INT);
            check(got[0] == prev && got[1] == next, "allGather from prev and next");
            expectError(
                    MPI.ERR_ARG,
                    "allToAllv with too few counts",
                    () -> plain.neighborAllToAllv(
                            send, new int[1], new int[1], MPI.DOUBLE, recv, recvcounts, rdispls, MPI.DOUBLE));

            // every rank names an in-edge nobody gives as an out-edge: refused on every rank
            expectError(
                    MPI.ERR_TOPOLOGY,
                    "edges given at one end only",
                    () -> w.createDistGraphAdjacent(new int[] {me}, new int[0], MPI.INFO_NULL, false));
            expectError(
                    MPI.ERR_RANK,
                    "a destination out of range",
                    () -> w.createDistGraphAdjacent(new int[0], new int[] {n}, MPI.INFO_NULL, false));
            expectError(
                    MPI.ERR_ARG,
                    "a negative weight",
                    () -> w.createDistGraphAdjacent(
                            new int[0], new int[0], new int[] {me}, new int[] {-1}, MPI.INFO_NULL, false));
            double sum = 0;
            for (double v : recv) {
                sum += v;
            }
            System.out.println("adjacent rank " + me + " sum " + sum);
            plain.free();
            g.free();
            MPI.Finalize();
        }
    }
}
