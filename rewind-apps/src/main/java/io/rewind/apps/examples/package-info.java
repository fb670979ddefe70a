/**
 * Small example programs written against the Open MPI Java API only: they run unchanged under
 * Open MPI's {@code mpirun} and under {@code rewind run}.
 */
package io.rewind.apps.examples;
