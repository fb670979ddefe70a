/**
 * Rewind's own API for programs, beside the {@code mpi} package: registering the state a checkpoint
 * saves, and the checkpoint point of the main loop. Loaded per rank, like the program.
 */
package io.rewind.api;
