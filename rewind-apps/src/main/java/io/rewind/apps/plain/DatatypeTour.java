package io.rewind.apps.plain;

import java.nio.ByteBuffer;
import mpi.CartComm;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import mpi.Struct;

/**
 * Per iteration: an array of structs ({@code mpi.Struct}: an int, three doubles and a long) passed
 * round a ring and broadcast from a root that moves, a matrix column sent with a strided vector type,
 * the columns of every rank gathered at a root with a resized vector type, a message received with a
 * wildcard tag after an {@code iProbe} loop and read back through {@code getCount} and {@code
 * getElements} of a derived type, a receive into a buffer too short for its message under {@code
 * ERRORS_RETURN} (the program catches the error and goes on), an attribute cached on a duplicated
 * communicator, a shift and a sub-grid reduction on a two-dimensional Cartesian grid, and a reduction
 * on the ranks that share memory ({@code splitType}). Needs at least two ranks. Usage: {@code
 * DatatypeTour [iterations] [work]}.
 */
public final class DatatypeTour {
    private DatatypeTour() {}

    private static final int PARTICLES = 5;
    private static final int ROWS = 6;

    /** A particle: its id, its position and a time stamp. */
    private static final class Particle extends Struct {
        private final int id = addInt();
        private final int position = addDouble(3);
        private final int stamp = addLong();

        @Override
        protected Data newData() {
            return new Data();
        }

        private final class Data extends Struct.Data {
            int id() {
                return getInt(id);
            }

            void id(int v) {
                putInt(id, v);
            }

            double position(int axis) {
                return getDouble(position, axis);
            }

            void position(int axis, double v) {
                putDouble(position, axis, v);
            }

            long stamp() {
                return getLong(stamp);
            }

            void stamp(long v) {
                putLong(stamp, v);
            }
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long work = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        if (size < 2) {
            throw new IllegalArgumentException("DatatypeTour needs at least two ranks");
        }
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;

        Particle particle = new Particle();
        Datatype particleType = particle.getType();
        ByteBuffer outgoing = MPI.newByteBuffer(particle.getExtent() * PARTICLES);
        ByteBuffer incoming = MPI.newByteBuffer(particle.getExtent() * PARTICLES);

        // A ROWS x size matrix of doubles in row order: column c is every size-th element from c.
        Datatype column = Datatype.createVector(ROWS, 1, size, MPI.DOUBLE);
        column.commit();
        Datatype columnSlot = Datatype.createResized(column, 0, 8); // consecutive columns, one double apart
        columnSlot.commit();
        Datatype pair = Datatype.createContiguous(2, MPI.INT);
        pair.commit();

        Intracomm copy = (Intracomm) world.dup();
        int keyval = Comm.createKeyval();
        copy.setErrhandler(MPI.ERRORS_RETURN);

        int[] dims = new int[2];
        CartComm.createDims(size, dims);
        CartComm grid = world.createCart(dims, new boolean[] {true, false}, false);
        CartComm row = grid.sub(new boolean[] {false, true});
        Intracomm node = world.splitType(MPI.COMM_TYPE_SHARED, rank, MPI.INFO_NULL);

        long check = rank + 1;
        int caught = 0;
        for (int it = 0; it < iterations; it++) {
            check += (long) Work.spin(check, work) % 83;

            for (int i = 0; i < PARTICLES; i++) {
                Particle.Data p = particle.getData(outgoing, i);
                p.id(rank * 100 + i);
                for (int axis = 0; axis < 3; axis++) {
                    p.position(axis, (check % 1000) * 0.5 + axis + i);
                }
                p.stamp(check + it);
            }
            world.sendRecv(outgoing, PARTICLES, particleType, right, 1, incoming, PARTICLES, particleType, left, 1);
            for (int i = 0; i < PARTICLES; i++) {
                Particle.Data p = particle.getData(incoming, i);
                check = check * 7 + p.id() + (long) (p.position(2) * 4) + p.stamp() % 1000;
            }
            int root = it % size;
            world.bcast(rank == root ? outgoing : incoming, PARTICLES, particleType, root);
            Particle.Data first = particle.getData(rank == root ? outgoing : incoming, 0);
            check += first.id() + first.stamp() % 977;

            double[] matrix = new double[ROWS * size];
            for (int i = 0; i < matrix.length; i++) {
                matrix[i] = rank * 1000 + i + it;
            }
            double[] received = new double[ROWS * size];
            world.sendRecv(matrix, 1, column, right, 2, received, 1, column, left, 2); // column 0 only
            for (int r = 0; r < ROWS; r++) {
                check = check * 3 + (long) received[r * size];
            }
            double[] mine = new double[ROWS];
            for (int r = 0; r < ROWS; r++) {
                mine[r] = matrix[r * size] + rank;
            }
            double[] gathered = new double[ROWS * size];
            world.gather(mine, ROWS, MPI.DOUBLE, gathered, 1, columnSlot, root); // rank c fills column c
            if (rank == root) {
                for (double v : gathered) {
                    check = check * 5 + (long) v;
                }
            }
            check %= 1_000_000_007L;

            world.send(new int[] {(int) (check % 5000), it, rank, 7}, 2, pair, right, 10 + it % 3);
            Status status = null;
            while (status == null) {
                status = world.iProbe(left, MPI.ANY_TAG);
            }
            int[] pairs = new int[4];
            Status got = world.recv(pairs, 2, pair, left, status.getTag());
            check += got.getTag() * 11L + got.getCount(pair) * 13L + got.getElements(MPI.INT) + pairs[0] + pairs[3];

            copy.send(new int[] {(int) (check % 77), it}, 2, MPI.INT, right, 3);
            int[] tooShort = new int[1];
            try {
                copy.recv(tooShort, 1, MPI.INT, left, 3);
            } catch (MPIException e) {
                caught++; // the message had two ints: a truncation, returned as an error
            }
            copy.setAttr(keyval, (int) (check % 1000) + caught);
            check += (Integer) copy.getAttr(keyval);

            int[] shifted = new int[1];
            int[] fromNeighbour = new int[1];
            mpi.ShiftParms shift = grid.shift(0, 1);
            grid.sendRecv(
                    new int[] {(int) (check % 321)},
                    1,
                    MPI.INT,
                    shift.getRankDest(),
                    4,
                    fromNeighbour,
                    1,
                    MPI.INT,
                    shift.getRankSource(),
                    4);
            row.allReduce(new int[] {(int) (check % 91)}, shifted, 1, MPI.INT, MPI.SUM);
            check += fromNeighbour[0] * 3L + shifted[0];

            int[] onNode = new int[1];
            node.allReduce(new int[] {(int) (check % 13)}, onNode, 1, MPI.INT, MPI.MAX);
            check += onNode[0];
        }
        world.barrier();
        System.out.println("rank " + rank + " check " + check + " caught " + caught);
        MPI.Finalize();
    }
}
