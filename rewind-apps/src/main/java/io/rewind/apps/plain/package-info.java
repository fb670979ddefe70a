/**
 * Programs written against package {@code mpi} alone, as a user of Open MPI's Java bindings writes
 * them (they compile against Open MPI's {@code mpi.jar} unchanged), each going through many kinds of
 * operation in every iteration, so that a crash at any operation count lands in a different one. Each
 * prints one line per rank that depends on every value it received.
 */
package io.rewind.apps.plain;
