/**
 * Rewind's own API for programs, beside the {@code mpi} package: registering the state a checkpoint
 * saves, the checkpoint point of the main loop, and the communication
 * patterns ({@link io.rewind.api.Patterns}) that keep anonymous receives of one iteration from
 * matching messages of the next. Loaded per rank, like the program.
 */
package io.rewind.api;
