/**
 * The Open MPI Java bindings API (as in Open MPI 4.1 / 5.0), implemented on Rewind's engine.
 * Programs written against Open MPI's {@code mpi} package compile and run unchanged; what is
 * supported and where behaviour differs is listed in {@code docs/api.md}.
 *
 * <p>Every rank loads this package in its own class loader, so its static state ({@code MPI.COMM_WORLD},
 * the attached buffer...) is per rank. The package depends on {@code io.rewind.engine} and
 * {@code io.rewind.runtime} only; Rewind's own extensions never live here.
 */
package mpi;
