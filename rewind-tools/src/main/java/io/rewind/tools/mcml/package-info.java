/**
 * Offline analysis of memory-constrained message logging (MCML, from the paper
 * "Memory-constrained message logging"): given a profile and a log budget per rank, which
 * channels would the protocol stop logging, and how many ranks would then roll back after one
 * failure (rollback set) and how long the chain of forced rollbacks gets (rollback chain).
 * Depends on {@link io.rewind.tools.profile} and {@link io.rewind.tools.cluster} (for the
 * dendrogram strategy).
 */
package io.rewind.tools.mcml;
