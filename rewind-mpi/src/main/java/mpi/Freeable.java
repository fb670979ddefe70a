package mpi;

/** An MPI object whose resources a program releases explicitly. */
public interface Freeable {
    void free() throws MPIException;
}
