/**
 * The runtime's side of {@code io.rewind.api}: the {@link io.rewind.api.spi.RankBinding} the API finds
 * with {@link java.util.ServiceLoader}. Defined per rank by the rank loader (like the API and the
 * {@code mpi} facade), never shared.
 */
package io.rewind.binding;
