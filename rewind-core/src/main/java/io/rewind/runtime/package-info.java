/**
 * Job and rank life cycle: launching ranks as isolated threads (each with its own class loader for the
 * application and the {@code mpi} facade), routing their output, detecting their end or failure, and
 * aborting the job. Depends on the engine and transports; never on the facade.
 */
package io.rewind.runtime;
