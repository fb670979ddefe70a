package mpi.conformance.comm;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.api.Checkpointer;
import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import java.nio.IntBuffer;
import java.time.Duration;
import java.util.List;
import mpi.Comm;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI standard chapter 6.6: intercommunicators (creation, point to point, the collectives of
 * section 5.2.2, duplication, merge) and {@code MPI_Comm_create_group} (6.4.2). The world is cut in
 * two: group A holds world ranks {@code 0 .. n/2-1}, group B the rest, so A rank {@code i} is world
 * rank {@code i} and B rank {@code j} is world rank {@code n/2 + j}; the programs compute every
 * expected value from that.
 */
@Tag("conformance")
class IntercommTest {

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void creationAndPointToPoint(int ranks) {
        runOk(PointToPoint.class, ranks);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void collectivesBetweenTheGroups(int ranks) {
        runOk(InterCollectivesProgram.class, ranks);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 8})
    void duplicateAndMerge(int ranks) {
        runOk(DupAndMerge.class, ranks);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    void createGroupAmongTheMembersOnly(int ranks) {
        runOk(CreateGroup.class, ranks);
    }

    @Test
    void aSingleRankCannotMakeAnIntercommunicator() {
        runOk(SingleRankErrors.class, 1);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 5})
    void badArgumentsAreErrorsOfTheWholeGroup(int ranks) {
        runOk(CreationErrors.class, ranks);
    }

    /**
     * A restarted rank rolls back to a checkpoint written while its intercommunicator, a duplicate
     * and a merge existed: it creates them again before {@code restore()}, without its peers, and
     * they must be the same communicators. Under every recovering protocol, with a checkpoint every
     * few points and crashes.
     */
    @ParameterizedTest
    @ValueSource(ints = {3, 4})
    void intercommunicatorsAreCreatedAgainByARankRestartedFromACheckpoint(int ranks) {
        JobConfig job = JobConfig.builder(CheckpointedIntercomm.class.getName())
                .ranks(ranks)
                .args("12")
                .timeout(Duration.ofSeconds(60))
                .quiet()
                .build();
        RecoveryCheck check = RecoveryCheck.of(job);
        List<FailureSchedule> schedules = check.schedules(ranks * 7907L, 3);
        int struck = 0;
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            for (FailureSchedule s : schedules) {
                RecoveryCheck.Verdict v = check.run(p, 3, s);
                assertTrue(v.ok(), () -> "CheckpointedIntercomm on " + ranks + ": " + v.describe());
                struck += v.struck();
            }
        }
        assertTrue(struck > 0, "no kill struck, so nothing was checked");
    }

    /** Iterations over an intercommunicator, its duplicate and a merge, with state registered for checkpoints. */
    public static final class CheckpointedIntercomm {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int steps = Integer.parseInt(args[0]);
            Halves x = new Halves(2);
            Intercomm copy = x.inter.dup();
            Intracomm merged = x.inter.merge(x.inA);
            long[] value = {x.me + 1};
            int[] step = {0};
            Checkpointer cp = Checkpointer.get();
            cp.register("value", value);
            cp.register("step", step);
            cp.restore();
            checkEq(x.remoteSize(), x.inter.getRemoteSize(), "remote size after a restart");
            checkEq(x.inA ? x.n - x.h + x.me : x.me - x.h, merged.getRank(), "merged rank after a restart");
            while (step[0] < steps) {
                cp.point();
                long[] other = new long[1];
                x.inter.allReduce(value, other, 1, MPI.LONG, MPI.SUM);
                long[] fromPartner = {0};
                if (x.localRank() == 0) {
                    copy.sendRecv(value, 1, MPI.LONG, 0, 1, fromPartner, 1, MPI.LONG, 0, 1);
                }
                long[] all = new long[1];
                merged.allReduce(value, all, 1, MPI.LONG, MPI.MAX);
                value[0] = (value[0] * 3 + other[0] + fromPartner[0] + all[0] + step[0]) % 1_000_003;
                step[0]++;
            }
            long[] total = new long[1];
            merged.allReduce(value, total, 1, MPI.LONG, MPI.SUM);
            if (merged.getRank() == 0) {
                System.out.println("checkpointed intercommunicator total " + total[0]);
            }
            merged.free();
            copy.free();
            x.inter.free();
            MPI.Finalize();
        }
    }

    /** This process's view of the two halves of the world and the intercommunicator between them. */
    static final class Halves {
        final int n;
        final int me;
        final int h;
        final boolean inA;
        final Intracomm local;
        final Intercomm inter;

        Halves(int tag) throws MPIException {
            n = MPI.COMM_WORLD.getSize();
            me = MPI.COMM_WORLD.getRank();
            h = n / 2;
            inA = me < h;
            local = MPI.COMM_WORLD.split(inA ? 0 : 1, me);
            // Leaders: rank 0 of each half; A's remote leader is world rank h, B's is world rank 0.
            inter = MPI.COMM_WORLD.createIntercomm(local, 0, inA ? h : 0, tag);
        }

        int localSize() {
            return inA ? h : n - h;
        }

        int remoteSize() {
            return inA ? n - h : h;
        }

        int localRank() {
            return inA ? me : me - h;
        }

        /** The world rank of remote rank {@code r}. */
        int remoteWorld(int r) {
            return inA ? h + r : r;
        }
    }

    public static final class PointToPoint {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Halves x = new Halves(7);
            Intercomm ic = x.inter;
            check(ic.isInter(), "isInter");
            check(!x.local.isInter(), "an intracommunicator is not inter");
            checkEq(x.localSize(), ic.getSize(), "size is the local group's");
            checkEq(x.localRank(), ic.getRank(), "rank is the local group's");
            checkEq(x.remoteSize(), ic.getRemoteSize(), "remote size");
            Group world = MPI.COMM_WORLD.getGroup();
            int[] remoteRanks = new int[x.remoteSize()];
            for (int r = 0; r < remoteRanks.length; r++) {
                remoteRanks[r] = r;
            }
            int[] asWorld = Group.translateRanks(ic.getRemoteGroup(), remoteRanks, world);
            for (int r = 0; r < remoteRanks.length; r++) {
                checkEq(x.remoteWorld(r), asWorld[r], "remote group member " + r);
            }
            checkEq(MPI.IDENT, Group.compare(ic.getGroup(), x.local.getGroup()), "getGroup is the local group");
            checkEq(MPI.IDENT, Comm.compare(ic, ic), "compare with itself");
            checkEq(MPI.UNEQUAL, Comm.compare(ic, MPI.COMM_WORLD), "inter against intra");

            // Every member sends to every remote member; receives take any source.
            Request[] sends = new Request[x.remoteSize()];
            IntBuffer out = MPI.newIntBuffer(x.remoteSize());
            for (int r = 0; r < x.remoteSize(); r++) {
                out.put(r, x.me * 1000 + r);
                sends[r] = ic.iSend(MPI.slice(out, r), 1, MPI.INT, r, 3);
            }
            boolean[] seen = new boolean[x.remoteSize()];
            for (int k = 0; k < x.remoteSize(); k++) {
                int[] in = new int[1];
                Status s = ic.recv(in, 1, MPI.INT, MPI.ANY_SOURCE, 3);
                int src = s.getSource();
                check(src >= 0 && src < x.remoteSize() && !seen[src], "source " + src + " is a new remote rank");
                seen[src] = true;
                checkEq(x.remoteWorld(src) * 1000L + x.localRank(), in[0], "payload from remote rank " + src);
            }
            Request.waitAll(sends);

            // Pairs (A rank i, B rank i): synchronous, buffered and ready sends, probe and iProbe.
            int pairs = Math.min(x.localSize(), x.remoteSize());
            int i = x.localRank();
            if (i < pairs) {
                int[] got = new int[4];
                if (x.inA) {
                    ic.sSend(new int[] {x.me, 1, 2, 3}, 4, MPI.INT, i, 11);
                    ic.recv(got, 2, MPI.INT, i, 12);
                    checkEq(x.remoteWorld(i) + 5L, got[0], "buffered reply");
                    IntBuffer ready = MPI.newIntBuffer(1);
                    Request r = ic.iRecv(ready, 1, MPI.INT, i, 13);
                    ic.send(new int[0], 0, MPI.INT, i, 14); // the receive is posted: B may send ready
                    r.waitFor();
                    checkEq(x.remoteWorld(i) * 3L, ready.get(0), "ready send");
                } else {
                    Status p = ic.probe(MPI.ANY_SOURCE, 11);
                    checkEq(i, p.getSource(), "probe source is the remote rank");
                    checkEq(4, p.getCount(MPI.INT), "probe count");
                    ic.recv(got, 4, MPI.INT, p.getSource(), 11);
                    checkEq(x.remoteWorld(i), got[0], "synchronous send");
                    ic.bSend(new int[] {x.me + 5, 0}, 2, MPI.INT, i, 12);
                    Status q;
                    do {
                        q = ic.iProbe(i, 14);
                    } while (q == null);
                    checkEq(i, q.getSource(), "iProbe source");
                    ic.recv(new int[0], 0, MPI.INT, i, 14);
                    ic.rSend(new int[] {x.me * 3}, 1, MPI.INT, i, 13);
                }
            }
            Status none = ic.recv(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
            checkEq(MPI.PROC_NULL, none.getSource(), "receive from PROC_NULL");
            expectError(
                    MPI.ERR_RANK,
                    "destination beyond the remote group",
                    () -> ic.send(new int[1], 1, MPI.INT, x.remoteSize(), 0));
            ic.barrier();
            System.out.println("rank " + x.me + " in " + (x.inA ? "A" : "B") + " of " + ic.getSize() + " talks to "
                    + ic.getRemoteSize());
            ic.free();
            check(ic.isNull(), "freed");
            MPI.Finalize();
        }
    }

    public static final class InterCollectivesProgram {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Halves x = new Halves(0);
            Intercomm ic = x.inter;
            int nl = x.localSize();
            int nr = x.remoteSize();
            int li = x.localRank();
            ic.barrier();
            ic.iBarrier().waitFor();

            // Rooted collectives, every root of each group in turn.
            for (int rootInA = 0; rootInA <= 1; rootInA++) {
                boolean rootGroup = (rootInA == 1) == x.inA;
                int rootsCount = rootGroup ? nl : nr;
                for (int root = 0; root < rootsCount; root++) {
                    int arg = rootGroup ? (root == li ? MPI.ROOT : MPI.PROC_NULL) : root;
                    int rootWorld = rootGroup ? (x.inA ? root : x.h + root) : x.remoteWorld(root);
                    rooted(ic, x, arg, rootWorld);
                }
            }

            // allGather: block r comes from remote rank r.
            int[] mine = {x.me, x.me * 2};
            int[] all = new int[2 * nr];
            ic.allGather(mine, 2, MPI.INT, all, 2, MPI.INT);
            for (int r = 0; r < nr; r++) {
                checkEq(x.remoteWorld(r), all[2 * r], "allGather block " + r);
                checkEq(2L * x.remoteWorld(r), all[2 * r + 1], "allGather block " + r);
            }
            // allGatherv: remote rank r contributes r + 1 items, placed in reverse order.
            int[] counts = new int[nr];
            int[] displs = new int[nr];
            int total = 0;
            for (int r = nr - 1; r >= 0; r--) {
                counts[r] = r + 1;
                displs[r] = total;
                total += r + 1;
            }
            int[] own = new int[li + 1];
            java.util.Arrays.fill(own, x.me + 100);
            int[] gathered = new int[total];
            ic.allGatherv(own, li + 1, MPI.INT, gathered, counts, displs, MPI.INT);
            for (int r = 0; r < nr; r++) {
                for (int k = 0; k < r + 1; k++) {
                    checkEq(x.remoteWorld(r) + 100L, gathered[displs[r] + k], "allGatherv from " + r);
                }
            }
            // allToAll: block j goes to remote rank j.
            int[] send = new int[nr];
            for (int j = 0; j < nr; j++) {
                send[j] = x.me * 100 + j;
            }
            int[] recv = new int[nr];
            ic.allToAll(send, 1, MPI.INT, recv, 1, MPI.INT);
            for (int r = 0; r < nr; r++) {
                checkEq(x.remoteWorld(r) * 100L + li, recv[r], "allToAll from " + r);
            }
            // allToAllv: send j + 1 copies to remote rank j; receive li + 1 copies from each.
            int[] sc = new int[nr];
            int[] sd = new int[nr];
            int at = 0;
            for (int j = 0; j < nr; j++) {
                sc[j] = j + 1;
                sd[j] = at;
                at += j + 1;
            }
            int[] sv = new int[at];
            for (int j = 0; j < nr; j++) {
                java.util.Arrays.fill(sv, sd[j], sd[j] + sc[j], x.me * 10 + j);
            }
            int[] rc = new int[nr];
            int[] rd = new int[nr];
            for (int r = 0; r < nr; r++) {
                rc[r] = li + 1;
                rd[r] = r * (li + 1);
            }
            int[] rv = new int[nr * (li + 1)];
            ic.allToAllv(sv, sc, sd, MPI.INT, rv, rc, rd, MPI.INT);
            for (int r = 0; r < nr; r++) {
                for (int k = 0; k < li + 1; k++) {
                    checkEq(x.remoteWorld(r) * 10L + li, rv[rd[r] + k], "allToAllv from " + r);
                }
            }
            // allReduce: each group gets the other's sum; non-blocking too.
            long remoteSum = 0;
            for (int r = 0; r < nr; r++) {
                remoteSum += x.remoteWorld(r) + 1;
            }
            long[] sum = new long[1];
            ic.allReduce(new long[] {x.me + 1}, sum, 1, MPI.LONG, MPI.SUM);
            checkEq(remoteSum, sum[0], "allReduce is the remote group's sum");
            java.nio.LongBuffer lb = MPI.newLongBuffer(1);
            java.nio.LongBuffer lo = MPI.newLongBuffer(1);
            lb.put(0, x.me + 1);
            ic.iAllReduce(lb, lo, 1, MPI.LONG, MPI.MAX).waitFor();
            checkEq(x.remoteWorld(nr - 1) + 1L, lo.get(0), "iAllReduce MAX");
            // reduceScatter: 12 elements, element k of member w is w * 100 + k; this group's counts
            // are uneven, the other group's may differ.
            int[] rsCounts = evenCounts(nl);
            if (nl > 1) {
                rsCounts[0]++;
                rsCounts[nl - 1]--;
            }
            int[] contribution = new int[12];
            for (int k = 0; k < 12; k++) {
                contribution[k] = x.me * 100 + k;
            }
            int[] part = new int[rsCounts[li]];
            ic.reduceScatter(contribution, part, rsCounts, MPI.INT, MPI.SUM);
            int first = 0;
            for (int i = 0; i < li; i++) {
                first += rsCounts[i];
            }
            for (int k = 0; k < rsCounts[li]; k++) {
                long expected = 0;
                for (int r = 0; r < nr; r++) {
                    expected += x.remoteWorld(r) * 100L + first + k;
                }
                checkEq(expected, part[k], "reduceScatter element " + (first + k));
            }
            int block = 12 / nl;
            int[] blockPart = new int[block];
            ic.reduceScatterBlock(contribution, blockPart, block, MPI.INT, MPI.SUM);
            for (int k = 0; k < block; k++) {
                long expected = 0;
                for (int r = 0; r < nr; r++) {
                    expected += x.remoteWorld(r) * 100L + li * block + k;
                }
                checkEq(expected, blockPart[k], "reduceScatterBlock element " + (li * block + k));
            }

            // Errors, found before any message.
            expectError(MPI.ERR_ROOT, "root beyond the remote group", () -> ic.bcast(new int[1], 1, MPI.INT, nr));
            expectError(
                    MPI.ERR_ROOT, "negative root", () -> ic.reduce(new int[1], new int[1], 1, MPI.INT, MPI.SUM, -7));
            expectError(MPI.ERR_ARG, "in place", () -> ic.allReduce(new int[1], 1, MPI.INT, MPI.SUM));
            expectError(MPI.ERR_ARG, "in-place gather", () -> ic.gather(new int[nr], 1, MPI.INT, MPI.ROOT));
            expectError(
                    MPI.ERR_ARG,
                    "counts for the local group, not the remote one",
                    () -> ic.allGatherv(new int[1], 1, MPI.INT, new int[100], new int[0], new int[0], MPI.INT));
            ic.barrier();
            System.out.println("rank " + x.me + " allReduce " + sum[0] + " part " + part.length);
            MPI.Finalize();
        }

        private static int[] evenCounts(int n) {
            int[] c = new int[n];
            java.util.Arrays.fill(c, 12 / n);
            return c;
        }

        /** One round of rooted collectives; {@code arg} is this member's root argument. */
        private static void rooted(Intercomm ic, Halves x, int arg, int rootWorld) throws MPIException {
            int nr = x.remoteSize();
            int li = x.localRank();
            boolean atRoot = arg == MPI.ROOT;
            boolean receiving = arg >= 0;
            // bcast (and iBcast) from the root to the other group.
            int[] b = atRoot ? new int[] {rootWorld, rootWorld + 1, 7} : new int[3];
            ic.bcast(b, 3, MPI.INT, arg);
            if (receiving) {
                check(b[0] == rootWorld && b[1] == rootWorld + 1 && b[2] == 7, "bcast from world rank " + rootWorld);
            } else if (!atRoot) {
                check(b[0] == 0 && b[2] == 0, "the root's group is left alone by bcast");
            }
            IntBuffer ib = MPI.newIntBuffer(2);
            if (atRoot) {
                ib.put(0, -rootWorld).put(1, 42);
            }
            ic.iBcast(ib, 2, MPI.INT, arg).waitFor();
            if (receiving) {
                check(ib.get(0) == -rootWorld && ib.get(1) == 42, "iBcast");
            }
            // gather: two items from each member of the other group.
            int[] all = new int[2 * nr];
            ic.gather(new int[] {x.me, x.me * 3}, 2, MPI.INT, all, 2, MPI.INT, arg);
            if (atRoot) {
                for (int r = 0; r < nr; r++) {
                    check(all[2 * r] == x.remoteWorld(r) && all[2 * r + 1] == 3 * x.remoteWorld(r), "gather " + r);
                }
            }
            // gatherv: r + 1 items from remote rank r, with a gap of one item after each block.
            int[] counts = new int[nr];
            int[] displs = new int[nr];
            int span = 0;
            for (int r = 0; r < nr; r++) {
                counts[r] = r + 1;
                displs[r] = span;
                span += r + 2;
            }
            int[] v = new int[span];
            java.util.Arrays.fill(v, -1);
            int[] own = new int[li + 1];
            java.util.Arrays.fill(own, x.me);
            if (atRoot) {
                ic.gatherv(v, counts, displs, MPI.INT, arg);
                for (int r = 0; r < nr; r++) {
                    for (int k = 0; k <= r; k++) {
                        checkEq(x.remoteWorld(r), v[displs[r] + k], "gatherv from " + r);
                    }
                    checkEq(-1, v[displs[r] + r + 1], "gatherv leaves the gap after block " + r);
                }
            } else {
                ic.gatherv(own, li + 1, MPI.INT, arg);
            }
            // scatter and scatterv: block r to remote rank r.
            int[] blocks = new int[2 * nr];
            for (int k = 0; k < blocks.length; k++) {
                blocks[k] = rootWorld * 1000 + k;
            }
            int[] two = new int[2];
            ic.scatter(blocks, 2, MPI.INT, two, 2, MPI.INT, arg);
            if (receiving) {
                checkEq(rootWorld * 1000L + 2 * li, two[0], "scatter");
                checkEq(rootWorld * 1000L + 2 * li + 1, two[1], "scatter");
            }
            int[] some = new int[li + 1];
            if (atRoot) {
                int[] sv = new int[span];
                for (int k = 0; k < sv.length; k++) {
                    sv[k] = rootWorld * 1000 + k;
                }
                ic.scatterv(sv, counts, displs, MPI.INT, arg);
            } else {
                ic.scatterv(some, li + 1, MPI.INT, arg);
            }
            if (receiving) {
                for (int k = 0; k <= li; k++) {
                    checkEq(rootWorld * 1000L + (long) li * (li + 3) / 2 + k, some[k], "scatterv item " + k);
                }
            }
            // reduce: the root gets the other group's sum; iReduce a product.
            long[] sum = new long[2];
            ic.reduce(new long[] {x.me, 1}, sum, 2, MPI.LONG, MPI.SUM, arg);
            if (atRoot) {
                long expected = 0;
                for (int r = 0; r < nr; r++) {
                    expected += x.remoteWorld(r);
                }
                checkEq(expected, sum[0], "reduce sum");
                checkEq(nr, sum[1], "reduce count");
            }
            java.nio.LongBuffer in = MPI.newLongBuffer(1);
            java.nio.LongBuffer out = MPI.newLongBuffer(1);
            in.put(0, x.me + 1);
            ic.iReduce(in, out, 1, MPI.LONG, MPI.PROD, arg).waitFor();
            if (atRoot) {
                long expected = 1;
                for (int r = 0; r < nr; r++) {
                    expected *= x.remoteWorld(r) + 1;
                }
                checkEq(expected, out.get(0), "iReduce product");
            }
        }
    }

    public static final class DupAndMerge {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Halves x = new Halves(1);
            Intercomm ic = x.inter;
            Intercomm copy = ic.dup();
            checkEq(MPI.CONGRUENT, Comm.compare(ic, copy), "a duplicate is congruent");
            checkEq(x.remoteSize(), copy.getRemoteSize(), "duplicate's remote size");
            // Traffic on the duplicate does not meet traffic on the original with the same tag.
            if (x.localRank() == 0) {
                ic.send(new int[] {1}, 1, MPI.INT, 0, 5);
                copy.send(new int[] {2}, 1, MPI.INT, 0, 5);
                int[] a = new int[1];
                int[] b = new int[1];
                copy.recv(b, 1, MPI.INT, 0, 5);
                ic.recv(a, 1, MPI.INT, 0, 5);
                check(a[0] == 1 && b[0] == 2, "contexts separate the duplicate");
            }
            Intercomm clone = copy.clone();
            checkEq(MPI.CONGRUENT, Comm.compare(clone, ic), "clone");
            clone.free();

            // A passes high=false, B high=true: A first, world order.
            Intracomm m1 = ic.merge(!x.inA);
            checkEq(x.me, m1.getRank(), "A first: merged rank is the world rank");
            checkEq(x.n, m1.getSize(), "merged size");
            check(!m1.isInter(), "a merge is an intracommunicator");
            // A high, B low: B first.
            Intracomm m2 = copy.merge(x.inA);
            int expected = x.inA ? (x.n - x.h) + x.me : x.me - x.h;
            checkEq(expected, m2.getRank(), "B first");
            // Same flag in both groups: the group holding world rank 0 (A) first.
            Intracomm m3 = ic.merge(true);
            checkEq(x.me, m3.getRank(), "tie: the group with the lower first world rank first");
            // Collectives on a merge: a prefix sum over B-then-A order.
            long[] prefix = new long[1];
            m2.scan(new long[] {x.me}, prefix, 1, MPI.LONG, MPI.SUM);
            long want = 0;
            for (int w = x.h; w < x.n; w++) {
                if (!x.inA && w <= x.me) {
                    want += w;
                } else if (x.inA) {
                    want += w;
                }
            }
            if (x.inA) {
                for (int w = 0; w <= x.me; w++) {
                    want += w;
                }
            }
            checkEq(want, prefix[0], "scan over the merge");
            long[] total = new long[1];
            m1.allReduce(new long[] {1}, total, 1, MPI.LONG, MPI.SUM);
            checkEq(x.n, total[0], "allReduce over the merge");
            // An intercommunicator between the merge's halves again, with the merge as peer.
            Intercomm again = m3.createIntercomm(x.local, 0, x.inA ? x.h : 0, 9);
            long[] s = new long[1];
            again.allReduce(new long[] {x.me}, s, 1, MPI.LONG, MPI.MAX);
            checkEq(x.inA ? x.n - 1 : x.h - 1, s[0], "allReduce on an intercommunicator made with a merge as peer");
            expectError(MPI.ERR_COMM, "a freed intercommunicator", () -> {
                Intercomm gone = again.dup();
                gone.free();
                gone.getRemoteSize();
            });
            System.out.println("rank " + x.me + " merged " + m1.getRank() + " " + m2.getRank() + " " + m3.getRank());
            m1.free();
            m2.free();
            m3.free();
            copy.free();
            MPI.Finalize();
        }
    }

    public static final class CreateGroup {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int n = w.getSize();
            int me = w.getRank();
            Group all = w.getGroup();
            // Even and odd world ranks each create their own communicator, with the same tag.
            int[] mineRanks = new int[(n - me % 2 + 1) / 2];
            for (int i = 0; i < mineRanks.length; i++) {
                mineRanks[i] = 2 * i + me % 2;
            }
            Intracomm parity = w.createGroup(all.incl(mineRanks), 4);
            checkEq(mineRanks.length, parity.getSize(), "size");
            checkEq(me / 2, parity.getRank(), "rank");
            long[] sum = new long[1];
            parity.allReduce(new long[] {me}, sum, 1, MPI.LONG, MPI.SUM);
            long expected = 0;
            for (int r : mineRanks) {
                expected += r;
            }
            checkEq(expected, sum[0], "sum over the parity group");
            // Only rank 0 and the last rank create (in reverse order); the others are not called.
            if (me == 0 || me == n - 1) {
                Intracomm ends = w.createGroup(all.incl(n == 1 ? new int[] {0} : new int[] {n - 1, 0}), 4);
                checkEq(me == 0 ? ends.getSize() - 1 : 0, ends.getRank(), "reverse order");
                ends.barrier();
                ends.free();
            }
            // A process outside the group gets a null communicator, without taking part.
            Intracomm outside = w.createGroup(all.excl(new int[] {me}), 8 + me);
            check(outside.isNull(), "a caller outside the group gets a null communicator");
            expectError(MPI.ERR_TAG, "negative tag", () -> w.createGroup(all, -1));
            Intracomm self = MPI.COMM_SELF;
            if (n > 1) {
                expectError(MPI.ERR_GROUP, "not a subset", () -> self.createGroup(all, 0));
            }
            w.barrier();
            System.out.println("rank " + me + " parity sum " + sum[0]);
            parity.free();
            MPI.Finalize();
        }
    }

    public static final class SingleRankErrors {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            expectError(
                    MPI.ERR_RANK,
                    "local leader out of range",
                    () -> MPI.COMM_WORLD.createIntercomm(MPI.COMM_SELF, 1, 0, 0));
            expectError(
                    MPI.ERR_RANK,
                    "the remote leader is in the local group",
                    () -> MPI.COMM_WORLD.createIntercomm(MPI.COMM_SELF, 0, 0, 0));
            expectError(
                    MPI.ERR_RANK,
                    "remote leader out of range",
                    () -> MPI.COMM_WORLD.createIntercomm(MPI.COMM_SELF, 0, 3, 0));
            check(Intercomm.getParent().isNull(), "no parent");
            System.out.println("errors as expected");
            MPI.Finalize();
        }
    }

    /** Both groups' leaders pass bad arguments: every member of both groups fails, none waits. */
    public static final class CreationErrors {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int n = MPI.COMM_WORLD.getSize();
            int me = MPI.COMM_WORLD.getRank();
            boolean inA = me < n / 2;
            Intracomm local = MPI.COMM_WORLD.split(inA ? 0 : 1, me);
            expectError(
                    MPI.ERR_RANK,
                    "remote leader beyond the peer",
                    () -> MPI.COMM_WORLD.createIntercomm(local, 0, n, 3));
            expectError(
                    MPI.ERR_TAG, "negative tag", () -> MPI.COMM_WORLD.createIntercomm(local, 0, inA ? n / 2 : 0, -3));
            expectError(MPI.ERR_COMM, "an intercommunicator as the local communicator", () -> {
                Intercomm ic = MPI.COMM_WORLD.createIntercomm(local, 0, inA ? n / 2 : 0, 3);
                MPI.COMM_WORLD.createIntercomm(ic, 0, 0, 4);
            });
            // The failed creations left nothing behind: a good one works.
            Intercomm ok = MPI.COMM_WORLD.createIntercomm(local, 0, inA ? n / 2 : 0, 3);
            checkEq(inA ? n - n / 2 : n / 2, ok.getRemoteSize(), "remote size");
            ok.barrier();
            System.out.println("rank " + me + " errors as expected");
            MPI.Finalize();
        }
    }
}
