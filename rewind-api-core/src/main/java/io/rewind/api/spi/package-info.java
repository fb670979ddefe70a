/**
 * The contract between {@code io.rewind.api} and the Rewind runtime: a {@link
 * io.rewind.api.spi.RankBinding} found with {@link java.util.ServiceLoader}. Not for programs.
 */
package io.rewind.api.spi;
