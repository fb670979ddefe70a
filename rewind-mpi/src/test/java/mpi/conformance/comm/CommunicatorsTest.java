package mpi.conformance.comm;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;

import mpi.Comm;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;

/** MPI standard chapter 6: groups, contexts and communicators. */
@Tag("conformance")
class CommunicatorsTest {

    @ParameterizedTest
    @RankCounts({1, 3, 5})
    void groupsAndCommunicators(int ranks) {
        runOk(GroupsAndComms.class, ranks);
    }

    @ParameterizedTest
    @RankCounts(
            value = {2, 4, 6},
            min = 2)
    void splitsOfDisjointGroupsThatShareAContext(int ranks) {
        runOk(NestedSplits.class, ranks);
    }

    /**
     * The colours of one split are disjoint groups and may share a context; splitting each of them
     * again (different sizes, different colours) must give every group its own communicators.
     */
    public static final class NestedSplits {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            Intracomm half = w.split(me < n / 2 + 1 ? 0 : 1, me);
            Intracomm quarter = half.split(half.getRank() % 2, -half.getRank());
            Intracomm copy = half.dup();
            long[] sum = {me};
            quarter.allReduce(sum, 1, MPI.LONG, MPI.SUM);
            long expected = 0;
            for (int r = 0; r < n; r++) {
                boolean sameHalf = (r < n / 2 + 1) == (me < n / 2 + 1);
                int halfRank = r < n / 2 + 1 ? r : r - (n / 2 + 1);
                if (sameHalf && halfRank % 2 == half.getRank() % 2) {
                    expected += r;
                }
            }
            checkEq(expected, sum[0], "sum over the quarter");
            long[] size = {1};
            copy.allReduce(size, 1, MPI.LONG, MPI.SUM);
            checkEq(half.getSize(), size[0], "size of the duplicated half");
            System.out.println("quarter " + quarter.getSize() + " sum " + sum[0]);
            copy.free();
            quarter.free();
            half.free();
            MPI.Finalize();
        }
    }

    public static final class GroupsAndComms {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int n = w.getSize();
            int me = w.getRank();
            Group g = w.getGroup();
            checkEq(n, g.getSize(), "group size");
            checkEq(me, g.getRank(), "group rank");
            int[] rev = new int[n];
            for (int i = 0; i < n; i++) {
                rev[i] = n - 1 - i;
            }
            Group r = g.incl(rev);
            checkEq(n - 1 - me, r.getRank(), "rank in reversed group");
            checkEq(n == 1 ? MPI.IDENT : MPI.SIMILAR, Group.compare(g, r), "compare reversed");
            checkEq(MPI.IDENT, Group.compare(g, w.getGroup()), "compare same");
            int[] t = Group.translateRanks(g, new int[] {0, n - 1}, r);
            check(t[0] == n - 1 && t[1] == 0, "translateRanks");
            Group first = g.incl(new int[] {0});
            Group rest = g.excl(new int[] {0});
            checkEq(n - 1, rest.getSize(), "excl");
            checkEq(MPI.UNDEFINED, me == 0 ? rest.getRank() : MPI.UNDEFINED, "non-member rank");
            checkEq(n, Group.union(rest, first).getSize(), "union");
            checkEq(0, Group.intersection(rest, first).getSize(), "intersection");
            checkEq(MPI.UNEQUAL, n == 1 ? MPI.UNEQUAL : Group.compare(Group.difference(g, first), g), "difference");
            checkEq(0, MPI.GROUP_EMPTY.getSize(), "empty group");
            checkEq((n + 1) / 2, g.rangeIncl(new int[][] {{0, n - 1, 2}}).getSize(), "rangeIncl");
            expectError(MPI.ERR_RANK, "incl out of range", () -> g.incl(new int[] {n}));
            r.free();
            check(r.isNull(), "freed group");
            expectError(MPI.ERR_GROUP, "use of a freed group", r::getSize);

            Intracomm d = w.dup();
            checkEq(MPI.CONGRUENT, Comm.compare(w, d), "dup is congruent");
            checkEq(MPI.IDENT, Comm.compare(w, w), "ident");
            // Traffic on the dup does not match traffic on the world with the same tag.
            int[] a = new int[1];
            int[] b = new int[1];
            if (n > 1) {
                if (me == 0) {
                    w.send(new int[] {1}, 1, MPI.INT, 1, 0);
                    d.send(new int[] {2}, 1, MPI.INT, 1, 0);
                } else if (me == 1) {
                    d.recv(b, 1, MPI.INT, 0, 0);
                    w.recv(a, 1, MPI.INT, 0, 0);
                    check(a[0] == 1 && b[0] == 2, "contexts separate the communicators");
                }
            }
            Intracomm s = w.split(me == 0 ? MPI.UNDEFINED : 1, me);
            check(s.isNull() == (me == 0), "UNDEFINED colour gives a null communicator");
            if (!s.isNull()) {
                checkEq(me - 1, s.getRank(), "rank in split");
                checkEq(
                        n == 1 ? MPI.UNEQUAL : (n == 2 ? MPI.UNEQUAL : MPI.UNEQUAL),
                        Comm.compare(w, s),
                        "split compare");
                int[] sum = new int[1];
                s.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
                checkEq(n - 1, sum[0], "allReduce on split");
                s.free();
                check(s.isNull(), "freed communicator is null");
                expectError(MPI.ERR_COMM, "use of a freed communicator", s::getRank);
                expectError(MPI.ERR_COMM, "send on a freed communicator", () -> s.send(new int[1], 1, MPI.INT, 0, 0));
            }
            Intracomm self = MPI.COMM_SELF;
            checkEq(1, self.getSize(), "COMM_SELF size");
            int[] x = {me};
            self.bcast(x, 1, MPI.INT, 0);
            checkEq(me, x[0], "bcast on COMM_SELF");
            expectError(MPI.ERR_COMM, "free COMM_WORLD", w::free);
            Intracomm c = d.clone();
            checkEq(MPI.CONGRUENT, Comm.compare(c, d), "clone");
            Comm id = w.iDup();
            id.getRequest().waitFor();
            checkEq(n, id.getSize(), "iDup");
            checkEq(Integer.MAX_VALUE, (Integer) w.getAttr(MPI.TAG_UB), "TAG_UB");
            c.free();
            d.free();
            MPI.Finalize();
        }
    }
}
