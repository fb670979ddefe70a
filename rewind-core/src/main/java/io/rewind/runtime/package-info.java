/**
 * Job and rank life cycle: launching ranks as isolated threads (each with its own class loader for the
 * application and the {@code mpi} facade), routing their output, detecting their end or failure,
 * carrying out the recovery plans of the job's protocol, and aborting the job. Depends on the engine,
 * the protocol SPI of {@code io.rewind.ft} and the transports; never on a concrete protocol (the
 * registry names them) or the facade.
 */
package io.rewind.runtime;
