package io.rewind.apps.plain;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Reads its work from standard input, as many programs started by {@code mpirun} do: rank 0 reads one
 * line of whitespace-separated integers at a time and broadcasts it; every rank sums its share of the
 * line (element {@code i} goes to rank {@code i % size}) and the sums are reduced, so reading and
 * communicating alternate for as long as the input lasts. The other ranks check that their own standard
 * input is empty, as under {@code mpirun}. Usage: {@code InputTour [work]}; the input ends the run.
 */
public final class InputTour {
    private InputTour() {}

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        long work = args.length > 0 ? Long.parseLong(args[0]) : 1000;
        BufferedReader in =
                rank == 0 ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)) : null;
        if (rank != 0 && System.in.read() != -1) {
            throw new IllegalStateException("rank " + rank + " was given standard input");
        }
        long check = 0;
        long lines = 0;
        while (true) {
            int[] count = new int[1];
            long[] values = new long[0];
            if (rank == 0) {
                String line = in.readLine();
                if (line == null) {
                    count[0] = -1;
                } else {
                    String[] words = line.trim().split("\\s+");
                    values = new long[line.isBlank() ? 0 : words.length];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = Long.parseLong(words[i]);
                    }
                    count[0] = values.length;
                }
            }
            world.bcast(count, 1, MPI.INT, 0);
            if (count[0] < 0) {
                break;
            }
            if (rank != 0) {
                values = new long[count[0]];
            }
            world.bcast(values, count[0], MPI.LONG, 0);
            long[] share = {0};
            for (int i = rank; i < values.length; i += size) {
                share[0] += values[i] * (i + 1);
            }
            if (Work.spin(1, work) < 1) {
                throw new IllegalStateException("the work between lines went wrong");
            }
            world.allReduce(share, 1, MPI.LONG, MPI.SUM);
            check = check * 31 + share[0];
            lines++;
        }
        System.out.println("rank " + rank + " lines " + lines + " check " + check);
        MPI.Finalize();
    }
}
