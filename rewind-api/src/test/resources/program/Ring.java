import io.rewind.api.Checkpointer;
import io.rewind.api.Patterns;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/** A program written against the rewind-api jar: the mpi calls a ring makes, checkpoints and patterns. */
public class Ring {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Comm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int[] step = {0};
        long[] sum = {0};
        Checkpointer cp = Checkpointer.get();
        cp.register("step", step);
        cp.register("sum", sum);
        cp.restore();
        int ring = Patterns.declare();
        while (step[0] < 10) {
            cp.point();
            Patterns.beginIteration(ring);
            long[] out = {sum[0] + rank};
            long[] in = new long[1];
            Status s = world.sendRecv(out, 1, MPI.LONG, (rank + 1) % size, 7, in, 1, MPI.LONG, (rank + size - 1) % size, 7);
            sum[0] = in[0] + s.getSource();
            Patterns.endIteration(ring);
            step[0]++;
        }
        long[] total = new long[1];
        world.allReduce(sum, total, 1, MPI.LONG, MPI.SUM);
        if (rank == 0) {
            System.out.println("checksum " + total[0]);
        }
        MPI.Finalize();
    }
}
