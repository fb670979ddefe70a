/** MPI programs that measure the runtime (ping-pong), driven by {@code rewind bench}. */
package io.rewind.apps.bench;
