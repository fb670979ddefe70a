package io.rewind.apps.plain;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.GraphComm;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;

/**
 * Per iteration, with counts that change from one iteration to the next (a result kept from another
 * iteration shows in the output): the nonblocking vector collectives ({@code iGatherv}, {@code
 * iScatterv}, {@code iAllGatherv}, {@code iAllToAllv}) in flight together, {@code iReduce}, {@code
 * iAllGather}, {@code iExScan} and {@code iReduceScatter}, the blocking {@code reduceScatterBlock} and
 * {@code allToAllw}, {@code MAXLOC} and {@code MINLOC} on pairs, {@code reduceLocal}, neighbour
 * all-to-all on a graph communicator and its nonblocking vector form on a distributed graph, persistent
 * requests started together ({@code startAll}), a buffered and a ready nonblocking send completed by
 * {@code testSome} and {@code testAny}, and a reduction on {@code COMM_SELF}. Needs at least two ranks.
 * Usage: {@code VectorTour [iterations] [work]}.
 */
public final class VectorTour {
    private VectorTour() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long work = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        if (size < 2) {
            throw new IllegalArgumentException("VectorTour needs at least two ranks");
        }
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;

        GraphComm ring = world.createGraph(ringIndex(size), ringEdges(size), false);
        int[] ringNeighbours = ring.getNeighbors(rank);
        int far = (rank + 2) % size;
        int farBack = (rank + size - 2) % size;
        GraphComm ahead =
                world.createDistGraphAdjacent(new int[] {left, farBack}, new int[] {right, far}, MPI.INFO_NULL, false);
        Group worldGroup = world.getGroup();
        Group reversed = worldGroup.incl(reverse(size));
        int[] translated = Group.translateRanks(worldGroup, new int[] {rank}, reversed);

        IntBuffer persistentOut = MPI.newIntBuffer(2);
        IntBuffer persistentIn = MPI.newIntBuffer(2);
        Prequest[] persistent = {
            world.recvInit(persistentIn, 2, MPI.INT, left, 21), world.sendInit(persistentOut, 2, MPI.INT, right, 21)
        };
        byte[] attached = new byte[4096];
        MPI.attachBuffer(attached);

        long check = rank + 1 + translated[0] * 1000L;
        for (int it = 0; it < iterations; it++) {
            check += (long) Work.spin(check, work) % 97;

            // Rank p contributes (p + it) % 3 + 1 values: the counts move with the iteration.
            int[] counts = new int[size];
            int[] displs = new int[size];
            int total = 0;
            for (int p = 0; p < size; p++) {
                counts[p] = (p + it) % 3 + 1;
                displs[p] = total;
                total += counts[p];
            }
            int mine = counts[rank];
            int root = it % size;
            IntBuffer contribution = MPI.newIntBuffer(mine);
            for (int i = 0; i < mine; i++) {
                contribution.put(i, (int) (check % 1000) + i);
            }
            IntBuffer gathered = MPI.newIntBuffer(total);
            IntBuffer everyone = MPI.newIntBuffer(total);
            IntBuffer toScatter = MPI.newIntBuffer(total);
            IntBuffer scattered = MPI.newIntBuffer(mine);
            if (rank == root) {
                for (int i = 0; i < total; i++) {
                    toScatter.put(i, (int) (check % 50) * i + it);
                }
            }
            IntBuffer toAll = MPI.newIntBuffer(size * 3);
            IntBuffer fromAll = MPI.newIntBuffer(size * 3);
            int[] sendCounts = new int[size];
            int[] sendDispls = new int[size];
            int[] recvCounts = new int[size];
            int[] recvDispls = new int[size];
            for (int p = 0; p < size; p++) {
                sendCounts[p] = (rank + p + it) % 3 + 1; // what this rank sends to p
                recvCounts[p] = (p + rank + it) % 3 + 1; // what p sends to this rank
                sendDispls[p] = 3 * p;
                recvDispls[p] = 3 * p;
                for (int i = 0; i < 3; i++) {
                    toAll.put(3 * p + i, rank * 100 + p * 10 + i + it);
                }
            }
            Request[] vectors = {
                world.iGatherv(contribution, mine, MPI.INT, gathered, counts, displs, MPI.INT, root),
                world.iScatterv(toScatter, counts, displs, MPI.INT, scattered, mine, MPI.INT, root),
                world.iAllGatherv(contribution, mine, MPI.INT, everyone, counts, displs, MPI.INT),
                world.iAllToAllv(toAll, sendCounts, sendDispls, MPI.INT, fromAll, recvCounts, recvDispls, MPI.INT)
            };
            Request.waitAll(vectors);
            if (rank == root) {
                for (int i = 0; i < total; i++) {
                    check = check * 3 + gathered.get(i);
                }
            }
            for (int i = 0; i < mine; i++) {
                check += scattered.get(i) * (i + 1L);
            }
            for (int i = 0; i < total; i++) {
                check = check * 5 + everyone.get(i);
            }
            for (int p = 0; p < size; p++) {
                for (int i = 0; i < recvCounts[p]; i++) {
                    check = check * 7 + fromAll.get(3 * p + i);
                }
            }
            check %= 1_000_000_007L;

            LongBuffer reduceIn = MPI.newLongBuffer(2);
            LongBuffer reduced = MPI.newLongBuffer(2);
            reduceIn.put(0, check % 9973).put(1, rank + it);
            IntBuffer allIn = MPI.newIntBuffer(1);
            IntBuffer all = MPI.newIntBuffer(size);
            allIn.put(0, (int) (check % 313));
            IntBuffer exIn = MPI.newIntBuffer(1);
            IntBuffer exOut = MPI.newIntBuffer(1);
            exIn.put(0, (int) (check % 17) + 1);
            int[] scatterCounts = new int[size];
            int scatterTotal = 0;
            for (int p = 0; p < size; p++) {
                scatterCounts[p] = (p + it) % 2 + 1;
                scatterTotal += scatterCounts[p];
            }
            IntBuffer scatterIn = MPI.newIntBuffer(scatterTotal);
            IntBuffer scatterOut = MPI.newIntBuffer(scatterCounts[rank]);
            for (int i = 0; i < scatterTotal; i++) {
                scatterIn.put(i, rank * i + it);
            }
            Request[] scalars = {
                world.iReduce(reduceIn, reduced, 2, MPI.LONG, MPI.SUM, (root + 1) % size),
                world.iAllGather(allIn, 1, MPI.INT, all, 1, MPI.INT),
                world.iExScan(exIn, exOut, 1, MPI.INT, MPI.PROD),
                world.iReduceScatter(scatterIn, scatterOut, scatterCounts, MPI.INT, MPI.SUM)
            };
            Request.waitAll(scalars);
            if (rank == (root + 1) % size) {
                check += reduced.get(0) * 3 + reduced.get(1);
            }
            for (int p = 0; p < size; p++) {
                check = check * 11 + all.get(p);
            }
            if (rank > 0) {
                check += exOut.get(0); // undefined on rank 0
            }
            for (int i = 0; i < scatterCounts[rank]; i++) {
                check += scatterOut.get(i);
            }
            check %= 1_000_000_007L;

            int[] blockIn = new int[2 * size];
            for (int i = 0; i < blockIn.length; i++) {
                blockIn[i] = (int) (check % 7) + i;
            }
            int[] block = new int[2];
            world.reduceScatterBlock(blockIn, block, 2, MPI.INT, MPI.MAX);
            check += block[0] * 13L + block[1];

            // allToAllw: one int to each rank, another long back from each, displacements in bytes.
            ByteBuffer wOut = ByteBuffer.allocateDirect(8 * size).order(ByteOrder.nativeOrder());
            ByteBuffer wIn = ByteBuffer.allocateDirect(8 * size).order(ByteOrder.nativeOrder());
            int[] ones = new int[size];
            int[] byteDispls = new int[size];
            Datatype[] types = new Datatype[size];
            for (int p = 0; p < size; p++) {
                ones[p] = 1;
                byteDispls[p] = 8 * p;
                types[p] = MPI.LONG;
                wOut.putLong(8 * p, check % 1000 + p);
            }
            world.allToAllw(wOut, ones, byteDispls, types, wIn, ones, byteDispls, types);
            for (int p = 0; p < size; p++) {
                check = check * 3 + wIn.getLong(8 * p);
            }
            check %= 1_000_000_007L;

            // Pairs: the largest value with its rank, and the smallest.
            int[] largest = new int[2];
            int[] smallest = new int[2];
            world.allReduce(new int[] {(int) (check % 1009), rank}, largest, 1, MPI.INT2, MPI.MAXLOC);
            world.allReduce(new int[] {(int) (check % 887), rank}, smallest, 1, MPI.INT2, MPI.MINLOC);
            check += largest[0] + 7L * largest[1] + 11L * smallest[0] + 13L * smallest[1];
            int[] local = {it, rank};
            int[] accumulated = {5, 6};
            Comm.reduceLocal(local, accumulated, 2, MPI.INT, MPI.SUM);
            check += accumulated[0] + accumulated[1];

            int[] toNeighbours = new int[ringNeighbours.length];
            int[] fromNeighbours = new int[ringNeighbours.length];
            for (int i = 0; i < toNeighbours.length; i++) {
                toNeighbours[i] = (int) (check % 211) + ringNeighbours[i];
            }
            ring.neighborAllToAll(toNeighbours, 1, MPI.INT, fromNeighbours, 1, MPI.INT);
            for (int v : fromNeighbours) {
                check = check * 3 + v;
            }
            int[] aheadCounts = {it % 2 + 1, (it + 1) % 2 + 1};
            int[] behindCounts = {it % 2 + 1, (it + 1) % 2 + 1};
            IntBuffer aheadOut = MPI.newIntBuffer(4);
            IntBuffer behindIn = MPI.newIntBuffer(4);
            for (int i = 0; i < 4; i++) {
                aheadOut.put(i, (int) (check % 99) + i);
            }
            ahead.iNeighborAllToAllv(
                            aheadOut,
                            aheadCounts,
                            new int[] {0, 2},
                            MPI.INT,
                            behindIn,
                            behindCounts,
                            new int[] {0, 2},
                            MPI.INT)
                    .waitFor();
            for (int s = 0; s < 2; s++) {
                for (int i = 0; i < behindCounts[s]; i++) {
                    check = check * 5 + behindIn.get(2 * s + i);
                }
            }
            check %= 1_000_000_007L;

            persistentOut.put(0, (int) (check % 4099)).put(1, it);
            Prequest.startAll(persistent);
            Request.waitAll(persistent);
            check += persistentIn.get(0) * 2L + persistentIn.get(1);

            IntBuffer readyIn = MPI.newIntBuffer(1);
            IntBuffer bufferedIn = MPI.newIntBuffer(1);
            Request readyRecv = world.iRecv(readyIn, 1, MPI.INT, left, 23);
            Request bufferedRecv = world.iRecv(bufferedIn, 1, MPI.INT, right, 24);
            world.barrier(); // every ready send finds its receive posted
            IntBuffer readyOut = MPI.newIntBuffer(1);
            IntBuffer bufferedOut = MPI.newIntBuffer(1);
            readyOut.put(0, (int) (check % 3001));
            bufferedOut.put(0, (int) (check % 2003));
            Request[] sends = {
                world.irSend(readyOut, 1, MPI.INT, right, 23), world.ibSend(bufferedOut, 1, MPI.INT, left, 24)
            };
            int done = 0;
            while (done < sends.length) {
                int[] indices = Request.testSome(sends);
                done += indices == null ? 0 : indices.length;
            }
            Request[] receives = {readyRecv, bufferedRecv};
            int pending = receives.length;
            while (pending > 0) {
                if (Request.testAny(receives) != MPI.UNDEFINED) {
                    pending--;
                }
            }
            check += readyIn.get(0) * 3L + bufferedIn.get(0);

            int[] self = new int[1];
            MPI.COMM_SELF.allReduce(new int[] {(int) (check % 10)}, self, 1, MPI.INT, MPI.SUM);
            check += self[0];
        }
        for (Prequest p : persistent) {
            p.free();
        }
        MPI.detachBuffer();
        world.barrier();
        System.out.println("rank " + rank + " check " + check);
        MPI.Finalize();
    }

    /** Each rank's neighbours on a ring, without repeating one (two ranks are each other's only one). */
    private static int[] ringNeighboursOf(int rank, int size) {
        int left = (rank + size - 1) % size;
        int right = (rank + 1) % size;
        return left == right ? new int[] {right} : new int[] {left, right};
    }

    private static int[] ringIndex(int size) {
        int[] index = new int[size];
        int edges = 0;
        for (int p = 0; p < size; p++) {
            edges += ringNeighboursOf(p, size).length;
            index[p] = edges;
        }
        return index;
    }

    private static int[] ringEdges(int size) {
        int[] index = ringIndex(size);
        int[] edges = new int[index[size - 1]];
        int at = 0;
        for (int p = 0; p < size; p++) {
            for (int q : ringNeighboursOf(p, size)) {
                edges[at++] = q;
            }
        }
        return edges;
    }

    private static int[] reverse(int size) {
        int[] ranks = new int[size];
        for (int i = 0; i < size; i++) {
            ranks[i] = size - 1 - i;
        }
        return ranks;
    }
}
