package io.rewind.apps.random;

import io.rewind.api.Checkpointer;
import io.rewind.api.StateSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import mpi.CartComm;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Op;
import mpi.Prequest;
import mpi.Request;
import mpi.ShiftParms;
import mpi.Status;
import mpi.UserFunction;

/**
 * A random SPMD program: every rank draws the same sequence of steps from a seed and runs it, each
 * step a communication pattern with random sizes, roots, gaps and partners, on the world or on a
 * communicator derived from it. Without its third argument a plain Open MPI Java program (no Rewind
 * API): it is the recovery oracle's generator of programs nobody wrote by hand.
 *
 * <p>Steps: point-to-point exchanges (blocking, non-blocking, synchronous, persistent), wildcard
 * receives, completion functions (waitAny, waitSome, testSome, testAny, testAll), probes and matched
 * probes, buffered and ready sends, cancelled receives, user-defined operators on strided datatypes, a
 * ring topology with neighbourhood collectives, an intercommunicator between two halves, every collective
 * (v-variants with gaps and empty blocks, in-place forms, non-blocking ones overlapping
 * point-to-point traffic), and communicator dup and split. What a rank receives through a wildcard
 * or a completion function is folded in an order-independent way, so the output is the same in every
 * correct run while the path through the program is not.
 *
 * <p>With {@code lines} (or {@code lines:D}) the program checkpoints through {@link
 * io.rewind.api.Checkpointer}, with a point at the top of every step, and messages cross the lines:
 * besides its step, each step sends messages that are received zero to D steps later (3 by default),
 * some of them over the eager limit, and now and then tokens that a drawn root gathers with wildcard
 * receives one step later ({@link LateMessages}). The same seed then draws another program than
 * without it; without it, every seed draws the program it always drew. {@code lines:0} checkpoints
 * with every message received in the step it was sent in.
 *
 * <p>Usage: {@code RandomSpmd SEED [STEPS [lines|lines:D]]}. Every rank prints its digest every few
 * steps and at the end; rank 0 prints the digests of all ranks.
 */
public final class RandomSpmd {
    /** How many step kinds {@link #step} knows. */
    static final int KINDS = 30;

    /** Bytes the buffered step sends through an attached buffer: at most six ints. */
    private static final int BUFFERED_STEP_BYTES = 6 * Integer.BYTES + MPI.BSEND_OVERHEAD;

    /** Replaced as a whole when a restarted rank restores it. */
    private Random random;

    private final int worldSize;
    private final int worldRank;
    private final List<Intracomm> comms = new ArrayList<>();
    private long digest;
    /** Whether the program checkpoints (then it creates no communicator after its restore). */
    private boolean acrossLines;
    /** Whether a buffer stays attached for the whole run (then the buffered step attaches none). */
    private boolean bufferAttached;

    private RandomSpmd(long seed) throws MPIException {
        this.random = new Random(seed);
        this.worldSize = MPI.COMM_WORLD.getSize();
        this.worldRank = MPI.COMM_WORLD.getRank();
        this.digest = 0x9E3779B97F4A7C15L * (worldRank + 1);
        comms.add(MPI.COMM_WORLD);
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        long seed = Long.parseLong(args[0]);
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        RandomSpmd program = new RandomSpmd(seed);
        if (args.length > 2) {
            program.runAcrossLines(seed, steps, maxDelay(args[2]));
        } else {
            for (int s = 0; s < steps; s++) {
                program.step(s);
                program.report(s);
            }
        }
        long[] mine = {program.digest};
        long[] all = new long[program.worldSize];
        MPI.COMM_WORLD.gather(mine, 1, MPI.LONG, all, 1, MPI.LONG, 0);
        System.out.println("final digest " + Long.toHexString(program.digest));
        if (program.worldRank == 0) {
            StringBuilder b = new StringBuilder("digests");
            for (long d : all) {
                b.append(' ').append(Long.toHexString(d));
            }
            System.out.println(b);
        }
        MPI.Finalize();
    }

    /** The largest delay of late messages that {@code lines} or {@code lines:D} asks for. */
    private static int maxDelay(String mode) {
        if (mode.equals("lines")) {
            return 3;
        }
        if (mode.startsWith("lines:")) {
            int d = Integer.parseInt(mode.substring("lines:".length()));
            if (d >= 0) {
                return d;
            }
        }
        throw new IllegalArgumentException("the third argument is lines or lines:D (D >= 0), was '" + mode + "'");
    }

    private void report(long s) {
        if (s % 7 == 6) {
            System.out.println("step " + s + " digest " + Long.toHexString(digest));
        }
    }

    /**
     * The program with checkpoint points and late messages: a point at the top of every step, then the
     * late messages the step sends and those due at it ({@link LateMessages}), then the step. The
     * communicators the steps use are all derived before the restore, since a restarted rank cannot
     * rebuild one created after its line; steps that would create one run a ring exchange instead.
     */
    private void runAcrossLines(long seed, int steps, int maxDelay) throws MPIException {
        acrossLines = true;
        for (int k = 0; k < 3; k++) {
            Intracomm c = comms.get(random.nextInt(comms.size()));
            derive(c, c.getRank(), -1 - k);
        }
        LateMessages late = new LateMessages(seed, worldSize, worldRank, maxDelay, steps, this::fold);
        MPI.attachBuffer(new byte[late.bufferBytes(BUFFERED_STEP_BYTES)]);
        bufferAttached = true;
        long[] step = {0};
        Checkpointer cp = Checkpointer.get();
        cp.register("step", step);
        cp.register("program", new StateSerializer() {
            @Override
            public byte[] save() {
                return saveState();
            }

            @Override
            public void load(byte[] bytes) {
                loadState(bytes);
            }
        });
        cp.restore();
        while (step[0] < steps) {
            cp.point();
            long s = step[0];
            late.send(s, digest);
            late.receive(s);
            step((int) s);
            report(s);
            step[0]++;
        }
        for (long s = steps; s < steps + late.drainSteps(); s++) {
            late.receive(s);
        }
        MPI.detachBuffer();
        bufferAttached = false;
    }

    /** The digest and the generator, which decide every step still to come. */
    private byte[] saveState() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeLong(digest);
            out.writeObject(random);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private void loadState(byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            digest = in.readLong();
            random = (Random) in.readObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    // --- state ----------------------------------------------------------------------------------------

    /** Folds a value into the digest, in order (for what every run receives the same way). */
    private void fold(long v) {
        digest = (digest ^ v) * 0x100000001B3L + 0x2545F4914F6CDD1DL;
    }

    /** A value that depends on the state, the rank and a position. */
    private int value(int i) {
        return (int) ((digest >>> 7) + 31L * i + 1_000_003L * worldRank) & 0x7fffffff;
    }

    /** An order-independent mix of one received (source, value) pair, to be summed. */
    private static long mix(long source, long value) {
        long h = (source + 1) * 0x9E3779B97F4A7C15L ^ value * 0xC2B2AE3D27D4EB4FL;
        return h ^ (h >>> 29);
    }

    /**
     * {@code worldSize} draws below {@code bound}. Always as many as the world has ranks, whatever the
     * size of the communicator used, so every rank consumes the generator alike.
     */
    private int[] draws(int bound) {
        int[] d = new int[worldSize];
        for (int i = 0; i < d.length; i++) {
            d[i] = random.nextInt(bound);
        }
        return d;
    }

    /** Displacements for {@code counts} with a random gap (0..2 items) before every block. */
    private int[] gapped(int[] counts, int[] gaps, int n) {
        int[] displs = new int[n];
        int at = 0;
        for (int i = 0; i < n; i++) {
            at += gaps[i] % 3;
            displs[i] = at;
            at += counts[i];
        }
        return displs;
    }

    private static int span(int[] counts, int[] displs, int n) {
        int hi = 0;
        for (int i = 0; i < n; i++) {
            hi = Math.max(hi, displs[i] + counts[i]);
        }
        return hi;
    }

    // --- steps ----------------------------------------------------------------------------------------

    private void step(int s) throws MPIException {
        Intracomm c = comms.get(random.nextInt(comms.size()));
        int n = c.getSize();
        int me = c.getRank();
        int kind = random.nextInt(KINDS);
        if (acrossLines && createsCommunicator(kind)) {
            kind = 0;
        }
        int root = random.nextInt(worldSize) % n;
        int count = random.nextInt(6);
        // A tag of its own per step: a wildcard receive must not take a message of a later step, which
        // would make the result depend on timing in failure-free runs too.
        int tag = s % 30_000;
        int[] counts = draws(4);
        int[] gaps = draws(3);
        int[] counts2 = draws(4);
        switch (kind) {
            case 0 -> ring(c, n, me, count, tag);
            case 1 -> pairs(c, n, me, count, tag);
            case 2 -> wildcardFanIn(c, n, me, root, tag);
            case 3 -> fanIn(c, n, me, root, tag, Completion.WAIT_ANY);
            case 4 -> fanIn(c, n, me, root, tag, Completion.WAIT_SOME);
            case 5 -> probeFanIn(c, n, me, root, tag);
            case 6 -> synchronousPairs(c, n, me, tag);
            case 7 -> persistentRing(c, n, me, count, tag);
            case 8 -> bcast(c, me, root, count);
            case 9 -> reduce(c, me, root, count);
            case 10 -> gatherv(c, n, me, root, counts, gaps);
            case 11 -> scatterv(c, n, me, root, counts, gaps);
            case 12 -> allGatherv(c, n, me, counts, gaps, false);
            case 13 -> allGatherv(c, n, me, counts, gaps, true);
            case 14 -> allToAllv(c, n, me, counts, counts2, gaps);
            case 15 -> reduceScatter(c, n, me, counts);
            case 16 -> scans(c, me, count);
            case 17 -> c.barrier();
            case 18 -> nonBlockingOverlap(c, n, me, count, tag);
            case 19 -> nonBlockingGather(c, n, me, count);
            case 20 -> derive(c, me, s);
            case 21 -> sendRecvReplace(c, n, me, count, tag);
            case 22 -> fanIn(c, n, me, root, tag, Completion.TEST_SOME);
            case 23 -> allToAll(c, n, me, count);
            case 24 -> matchedProbeFanIn(c, n, me, root, tag);
            case 25 -> bufferedAndReadySends(c, n, me, count, tag);
            case 26 -> cancelledReceiveAndPolledRing(c, n, me, count, tag);
            case 27 -> userOperatorOnStridedData(c, n, me, count, tag);
            case 28 -> ringTopology(c, n, me, count, tag);
            case 29 -> intercommunicatorOfTwoHalves(c, n, me, tag);
            default -> throw new IllegalStateException("step kind " + kind);
        }
    }

    /** The step kinds that create a communicator (and free it, or keep it). */
    private static boolean createsCommunicator(int kind) {
        return kind == 20 || kind == 28 || kind == 29;
    }

    private void ring(Comm c, int n, int me, int count, int tag) throws MPIException {
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = value(i);
        }
        int[] in = new int[count];
        Status st = c.sendRecv(out, count, MPI.INT, (me + 1) % n, tag, in, count, MPI.INT, (me + n - 1) % n, tag);
        fold(st.getCount(MPI.INT));
        for (int v : in) {
            fold(v);
        }
    }

    private void sendRecvReplace(Comm c, int n, int me, int count, int tag) throws MPIException {
        long[] buf = new long[count];
        for (int i = 0; i < count; i++) {
            buf[i] = digest + i;
        }
        c.sendRecvReplace(buf, count, MPI.LONG, (me + n - 1) % n, tag, (me + 1) % n, tag);
        for (long v : buf) {
            fold(v);
        }
    }

    /** Everyone sends to the rank a random shift away and receives from the rank the same shift back. */
    private void pairs(Comm c, int n, int me, int count, int tag) throws MPIException {
        int shift = 1 + (int) (Long.remainderUnsigned(digestOfWorld(), Math.max(1, n)));
        int to = (me + shift) % n;
        int from = (me - shift % n + n) % n;
        IntBuffer out = MPI.newIntBuffer(count + 1);
        for (int i = 0; i <= count; i++) {
            out.put(i, value(i));
        }
        IntBuffer in = MPI.newIntBuffer(count + 1);
        Request r = c.iRecv(in, count + 1, MPI.INT, from, tag);
        Request s = c.iSend(out, count + 1, MPI.INT, to, tag);
        Request.waitAll(new Request[] {r, s});
        for (int i = 0; i <= count; i++) {
            fold(in.get(i));
        }
    }

    /** A value all ranks agree on without communicating: drawn from the shared generator. */
    private long digestOfWorld() {
        return random.nextLong();
    }

    /** The root receives one message from every other rank by wildcard, in whatever order they come. */
    private void wildcardFanIn(Comm c, int n, int me, int root, int tag) throws MPIException {
        if (me != root) {
            c.send(new long[] {digest}, 1, MPI.LONG, root, tag);
            return;
        }
        long sum = 0;
        for (int k = 1; k < n; k++) {
            long[] got = new long[1];
            Status st = c.recv(got, 1, MPI.LONG, MPI.ANY_SOURCE, tag);
            sum += mix(st.getSource(), got[0]);
        }
        fold(sum);
    }

    /** How the root of a fan-in takes the receives as they complete. */
    private enum Completion {
        WAIT_ANY,
        WAIT_SOME,
        TEST_SOME
    }

    /** The root posts one receive per peer and takes them as they complete, by {@code how}. */
    private void fanIn(Comm c, int n, int me, int root, int tag, Completion how) throws MPIException {
        if (me != root) {
            c.send(new int[] {value(me), me}, 2, MPI.INT, root, tag);
            return;
        }
        Request[] reqs = new Request[n];
        IntBuffer[] bufs = new IntBuffer[n];
        for (int r = 0; r < n; r++) {
            if (r != root) {
                bufs[r] = MPI.newIntBuffer(2);
                reqs[r] = c.iRecv(bufs[r], 2, MPI.INT, r, tag);
            }
        }
        long sum = 0;
        int left = n - 1;
        while (left > 0) {
            int[] done =
                    switch (how) {
                        case WAIT_ANY -> new int[] {Request.waitAny(reqs)};
                        case WAIT_SOME -> Request.waitSome(reqs);
                        case TEST_SOME -> Request.testSome(reqs); // polls: may find none
                    };
            for (int i : done) {
                sum += mix(i, bufs[i].get(0));
                reqs[i] = null;
                left--;
            }
        }
        fold(sum);
    }

    /** The root probes for any message, then receives exactly that one. */
    private void probeFanIn(Comm c, int n, int me, int root, int tag) throws MPIException {
        if (me != root) {
            c.send(new int[] {value(me), value(me + 1)}, 2, MPI.INT, root, tag);
            return;
        }
        long sum = 0;
        for (int k = 1; k < n; k++) {
            Status st = null;
            if ((k & 1) == 0) {
                st = c.probe(MPI.ANY_SOURCE, tag);
            } else {
                while (st == null) {
                    st = c.iProbe(MPI.ANY_SOURCE, tag);
                }
            }
            int[] got = new int[st.getCount(MPI.INT)];
            c.recv(got, got.length, MPI.INT, st.getSource(), st.getTag());
            sum += mix(st.getSource(), got[0] * 31L + got[1]);
        }
        fold(sum);
    }

    /** Ranks pair up (0-1, 2-3, ...): the even one sends synchronously, then receives. */
    private void synchronousPairs(Comm c, int n, int me, int tag) throws MPIException {
        int partner = me ^ 1;
        if (partner >= n) {
            return;
        }
        int[] in = new int[1];
        if ((me & 1) == 0) {
            c.sSend(new int[] {value(3)}, 1, MPI.INT, partner, tag);
            c.recv(in, 1, MPI.INT, partner, tag);
        } else {
            c.recv(in, 1, MPI.INT, partner, tag);
            c.sSend(new int[] {value(4)}, 1, MPI.INT, partner, tag);
        }
        fold(in[0]);
    }

    /** Persistent requests to the ring neighbours, started twice with the data changed in between. */
    private void persistentRing(Comm c, int n, int me, int count, int tag) throws MPIException {
        IntBuffer out = MPI.newIntBuffer(count + 1);
        IntBuffer in = MPI.newIntBuffer(count + 1);
        Prequest s = c.sendInit(out, count + 1, MPI.INT, (me + 1) % n, tag);
        Prequest r = c.recvInit(in, count + 1, MPI.INT, (me + n - 1) % n, tag);
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i <= count; i++) {
                out.put(i, value(i + round));
            }
            Prequest.startAll(new Prequest[] {r, s});
            Request.waitAll(new Request[] {r, s});
            for (int i = 0; i <= count; i++) {
                fold(in.get(i));
            }
        }
        s.free();
        r.free();
    }

    private void bcast(Comm c, int me, int root, int count) throws MPIException {
        double[] b = new double[count];
        for (int i = 0; i < count; i++) {
            b[i] = me == root ? value(i) * 0.5 : -1;
        }
        c.bcast(b, count, MPI.DOUBLE, root);
        for (double v : b) {
            fold(Double.doubleToLongBits(v));
        }
    }

    private void reduce(Comm c, int me, int root, int count) throws MPIException {
        double[] x = new double[count + 1];
        long[] l = new long[count + 1];
        for (int i = 0; i <= count; i++) {
            x[i] = value(i) * 1e-3;
            l[i] = value(i + 7);
        }
        double[] sum = new double[count + 1];
        c.reduce(x, sum, count + 1, MPI.DOUBLE, MPI.SUM, root);
        long[] max = new long[count + 1];
        c.allReduce(l, max, count + 1, MPI.LONG, MPI.MAX);
        c.allReduce(x, count + 1, MPI.DOUBLE, MPI.PROD); // in place
        for (int i = 0; i <= count; i++) {
            fold(me == root ? Double.doubleToLongBits(sum[i]) : 0);
            fold(max[i]);
            fold(Double.doubleToLongBits(x[i]));
        }
    }

    private void gatherv(Comm c, int n, int me, int root, int[] counts, int[] gaps) throws MPIException {
        int[] displs = gapped(counts, gaps, n);
        int[] mine = new int[counts[me]];
        for (int i = 0; i < mine.length; i++) {
            mine[i] = value(i);
        }
        int[] all = new int[span(counts, displs, n) + 1];
        if (me == root && (gaps[0] & 1) == 1) {
            System.arraycopy(mine, 0, all, displs[me], mine.length);
            c.gatherv(all, counts, displs, MPI.INT, root); // in place at the root
        } else if (me == root) {
            c.gatherv(mine, counts[me], MPI.INT, all, counts, displs, MPI.INT, root);
        } else {
            c.gatherv(mine, counts[me], MPI.INT, root);
        }
        for (int v : all) {
            fold(v);
        }
    }

    private void scatterv(Comm c, int n, int me, int root, int[] counts, int[] gaps) throws MPIException {
        int[] displs = gapped(counts, gaps, n);
        int[] all = new int[span(counts, displs, n) + 1];
        for (int i = 0; i < all.length; i++) {
            all[i] = value(i);
        }
        int[] got = new int[counts[me]];
        c.scatterv(all, counts, displs, MPI.INT, got, counts[me], MPI.INT, root);
        for (int v : got) {
            fold(v);
        }
    }

    private void allGatherv(Comm c, int n, int me, int[] counts, int[] gaps, boolean inPlace) throws MPIException {
        int[] displs = gapped(counts, gaps, n);
        long[] all = new long[span(counts, displs, n) + 2];
        long[] mine = new long[counts[me]];
        for (int i = 0; i < mine.length; i++) {
            mine[i] = digest + i;
        }
        if (inPlace) {
            System.arraycopy(mine, 0, all, displs[me], mine.length);
            c.allGatherv(all, counts, displs, MPI.LONG);
        } else {
            c.allGatherv(mine, counts[me], MPI.LONG, all, counts, displs, MPI.LONG);
        }
        for (long v : all) {
            fold(v);
        }
    }

    private void allToAllv(Comm c, int n, int me, int[] drawn, int[] drawn2, int[] gaps) throws MPIException {
        // What i sends to j must be what j expects from i: both derive it from the same draws.
        int[] sc = new int[n];
        int[] rc = new int[n];
        for (int j = 0; j < n; j++) {
            sc[j] = (drawn[me] + drawn2[j]) % 4;
            rc[j] = (drawn[j] + drawn2[me]) % 4;
        }
        int[] sd = gapped(sc, gaps, n);
        int[] rd = gapped(rc, gaps, n);
        int[] out = new int[span(sc, sd, n)];
        for (int i = 0; i < out.length; i++) {
            out[i] = value(i);
        }
        int[] in = new int[span(rc, rd, n) + 1];
        c.allToAllv(out, sc, sd, MPI.INT, in, rc, rd, MPI.INT);
        for (int v : in) {
            fold(v);
        }
    }

    private void allToAll(Comm c, int n, int me, int count) throws MPIException {
        int k = count + 1;
        long[] out = new long[n * k];
        for (int i = 0; i < out.length; i++) {
            out[i] = digest ^ i;
        }
        long[] in = new long[n * k];
        c.allToAll(out, k, MPI.LONG, in, k, MPI.LONG);
        for (long v : in) {
            fold(v);
        }
    }

    private void reduceScatter(Comm c, int n, int me, int[] counts) throws MPIException {
        int total = 0;
        for (int i = 0; i < n; i++) {
            total += counts[i];
        }
        long[] in = new long[total];
        for (int i = 0; i < total; i++) {
            in[i] = value(i);
        }
        long[] out = new long[counts[me]];
        c.reduceScatter(in, out, counts, MPI.LONG, MPI.SUM);
        for (long v : out) {
            fold(v);
        }
        double[] block = new double[2 * n];
        for (int i = 0; i < block.length; i++) {
            block[i] = value(i) * 0.25;
        }
        double[] mine = new double[2];
        c.reduceScatterBlock(block, mine, 2, MPI.DOUBLE, MPI.MAX);
        fold(Double.doubleToLongBits(mine[0]));
        fold(Double.doubleToLongBits(mine[1]));
    }

    private void scans(Intracomm c, int me, int count) throws MPIException {
        long[] x = new long[count + 1];
        for (int i = 0; i <= count; i++) {
            x[i] = value(i);
        }
        long[] inclusive = new long[count + 1];
        long[] exclusive = new long[count + 1];
        c.scan(x, inclusive, count + 1, MPI.LONG, MPI.SUM);
        c.exScan(x, exclusive, count + 1, MPI.LONG, MPI.SUM);
        for (int i = 0; i <= count; i++) {
            fold(inclusive[i]);
            fold(me == 0 ? 0 : exclusive[i]);
        }
    }

    /** A non-blocking allReduce and a broadcast in flight while ring messages go around. */
    private void nonBlockingOverlap(Comm c, int n, int me, int count, int tag) throws MPIException {
        DoubleBuffer in = MPI.newDoubleBuffer(count + 1);
        DoubleBuffer out = MPI.newDoubleBuffer(count + 1);
        for (int i = 0; i <= count; i++) {
            in.put(i, value(i) * 0.125);
        }
        Request ar = c.iAllReduce(in, out, count + 1, MPI.DOUBLE, MPI.SUM);
        LongBuffer b = MPI.newLongBuffer(2);
        b.put(0, digest).put(1, me);
        Request bc = c.iBcast(b, 2, MPI.LONG, n - 1);
        ring(c, n, me, count, tag);
        Request.waitAll(new Request[] {ar, bc});
        for (int i = 0; i <= count; i++) {
            fold(Double.doubleToLongBits(out.get(i)));
        }
        fold(b.get(0));
        fold(b.get(1));
    }

    private void nonBlockingGather(Comm c, int n, int me, int count) throws MPIException {
        int k = count + 1;
        IntBuffer mine = MPI.newIntBuffer(k);
        for (int i = 0; i < k; i++) {
            mine.put(i, value(i));
        }
        IntBuffer all = MPI.newIntBuffer(k * n);
        Request g = c.iAllGather(mine, k, MPI.INT, all, k, MPI.INT);
        Request b = c.iBarrier();
        g.waitFor();
        b.waitFor();
        for (int i = 0; i < k * n; i++) {
            fold(all.get(i));
        }
    }

    /** Derives a communicator from {@code c}: a duplicate or a split by a random colour. */
    private void derive(Intracomm c, int me, int s) throws MPIException {
        int colors = 1 + random.nextInt(3);
        int[] keys = draws(10);
        if (comms.size() >= 6) {
            return; // enough communicators
        }
        Intracomm d = colors == 1 ? c.dup() : c.split(me % colors, keys[me] * 100 + me);
        comms.add(d);
        fold(d.getSize() * 1000L + d.getRank() + s);
    }

    /**
     * The root takes one message from every other rank with a wildcard matched probe (blocking, or an
     * imProbe polled until it finds one), sizes its buffer from the probe and receives exactly that
     * message: each sender sends as many items as its rank says, so a wrong match shows in the count.
     */
    private void matchedProbeFanIn(Comm c, int n, int me, int root, int tag) throws MPIException {
        if (me != root) {
            long[] out = new long[1 + me % 3];
            for (int i = 0; i < out.length; i++) {
                out[i] = value(i) + 7L * me;
            }
            c.send(out, out.length, MPI.LONG, root, tag);
            return;
        }
        long sum = 0;
        for (int k = 1; k < n; k++) {
            Message m = new Message();
            Status st = null;
            if ((k & 1) == 1) {
                st = m.mProbe(MPI.ANY_SOURCE, tag, c);
            } else {
                while (st == null) {
                    st = m.imProbe(MPI.ANY_SOURCE, tag, c);
                }
            }
            int items = st.getCount(MPI.LONG);
            long[] got = new long[items];
            Status received = m.mRecv(got, items, MPI.LONG);
            long h = items;
            for (long v : got) {
                h = h * 31 + v;
            }
            sum += mix(received.getSource(), h);
        }
        fold(sum);
    }

    /**
     * Buffered sends around the ring through an attached buffer, then ready sends the other way round,
     * each to a receive its peer posted before a barrier.
     */
    private void bufferedAndReadySends(Comm c, int n, int me, int count, int tag) throws MPIException {
        int[] out = new int[count + 1];
        for (int i = 0; i <= count; i++) {
            out[i] = value(i + 11);
        }
        if (!bufferAttached) {
            MPI.attachBuffer(new byte[(count + 1) * Integer.BYTES + MPI.BSEND_OVERHEAD]);
        }
        c.bSend(out, count + 1, MPI.INT, (me + 1) % n, tag);
        int[] in = new int[count + 1];
        c.recv(in, count + 1, MPI.INT, (me + n - 1) % n, tag);
        if (!bufferAttached) {
            MPI.detachBuffer();
        }
        for (int v : in) {
            fold(v);
        }
        IntBuffer ready = MPI.newIntBuffer(count + 1);
        Request r = c.iRecv(ready, count + 1, MPI.INT, (me + 1) % n, tag);
        c.barrier();
        c.rSend(in, count + 1, MPI.INT, (me + n - 1) % n, tag);
        r.waitFor();
        for (int i = 0; i <= count; i++) {
            fold(ready.get(i));
        }
    }

    /**
     * A wildcard receive nobody sends to, cancelled; then a ring of synchronous non-blocking sends whose
     * requests are polled with testAll until all are done.
     */
    private void cancelledReceiveAndPolledRing(Comm c, int n, int me, int count, int tag) throws MPIException {
        IntBuffer never = MPI.newIntBuffer(1);
        Request lost = c.iRecv(never, 1, MPI.INT, MPI.ANY_SOURCE, tag + 30_000);
        lost.cancel();
        fold(lost.waitStatus().isCancelled() ? 1 : 2);
        IntBuffer out = MPI.newIntBuffer(count + 1);
        for (int i = 0; i <= count; i++) {
            out.put(i, value(i + 5));
        }
        IntBuffer in = MPI.newIntBuffer(count + 1);
        Request[] reqs = {
            c.iRecv(in, count + 1, MPI.INT, (me + n - 1) % n, tag), c.isSend(out, count + 1, MPI.INT, (me + 1) % n, tag)
        };
        while (!Request.testAll(reqs)) {
            Thread.onSpinWait(); // how often it polls depends on timing, and is not folded
        }
        for (int i = 0; i <= count; i++) {
            fold(in.get(i));
        }
    }

    /**
     * A user-defined operator (element-wise, commutative) in an allReduce, and every other element of an
     * array sent to the next rank through a vector datatype.
     */
    private void userOperatorOnStridedData(Comm c, int n, int me, int count, int tag) throws MPIException {
        Op xorSum = new Op(
                new UserFunction() {
                    @Override
                    public void call(Object in, Object inOut, int items, Datatype type) {
                        long[] a = (long[]) in;
                        long[] b = (long[]) inOut;
                        for (int i = 0; i < items; i++) {
                            b[i] = (b[i] ^ a[i]) + (b[i] & a[i]) * 2; // a + b, spelled out
                        }
                    }
                },
                true);
        long[] x = new long[count + 1];
        for (int i = 0; i <= count; i++) {
            x[i] = value(i) * (long) (me + 1);
        }
        long[] total = new long[count + 1];
        c.allReduce(x, total, count + 1, MPI.LONG, xorSum);
        xorSum.free();
        for (long v : total) {
            fold(v);
        }
        int blocks = count + 1;
        Datatype everyOther = Datatype.createVector(blocks, 1, 2, MPI.INT);
        everyOther.commit();
        int[] out = new int[2 * blocks];
        for (int i = 0; i < out.length; i++) {
            out[i] = value(i + 3);
        }
        int[] in = new int[2 * blocks];
        c.sendRecv(out, 1, everyOther, (me + 1) % n, tag, in, 1, everyOther, (me + n - 1) % n, tag);
        everyOther.free();
        for (int v : in) {
            fold(v); // the gaps stay 0
        }
    }

    /**
     * A periodic one-dimensional Cartesian grid over the communicator: a neighbourhood allGather, then
     * a shift along the ring; the grid is freed at the end of the step.
     */
    private void ringTopology(Intracomm c, int n, int me, int count, int tag) throws MPIException {
        CartComm ring = c.createCart(new int[] {n}, new boolean[] {true}, false);
        int[] mine = new int[count + 1];
        for (int i = 0; i <= count; i++) {
            mine[i] = value(i + 17);
        }
        int[] both = new int[2 * (count + 1)];
        ring.neighborAllGather(mine, count + 1, MPI.INT, both, count + 1, MPI.INT);
        for (int v : both) {
            fold(v);
        }
        ShiftParms shift = ring.shift(0, 1);
        int[] in = new int[1];
        ring.sendRecv(
                new int[] {value(me)},
                1,
                MPI.INT,
                shift.getRankDest(),
                tag,
                in,
                1,
                MPI.INT,
                shift.getRankSource(),
                tag);
        fold(in[0]);
        ring.free();
    }

    /**
     * The communicator split into two halves joined by an intercommunicator: an allReduce across it
     * (each half gets the sum of the other's values) and a barrier; both freed at the end of the step.
     */
    private void intercommunicatorOfTwoHalves(Intracomm c, int n, int me, int tag) throws MPIException {
        if (n < 2) {
            return;
        }
        int half = me < n / 2 ? 0 : 1;
        Intracomm local = c.split(half, me);
        Intercomm both = c.createIntercomm(local, 0, half == 0 ? n / 2 : 0, tag);
        long[] sum = new long[1];
        both.allReduce(new long[] {value(me) + 3L * me}, sum, 1, MPI.LONG, MPI.SUM);
        fold(sum[0]);
        fold(both.getRemoteSize());
        both.barrier();
        both.free();
        local.free();
    }
}
