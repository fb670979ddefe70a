/**
 * Per-rank communication load and how unequal it is (the Gini index, as the MCML paper
 * "Memory-constrained message logging" uses it to characterise communication imbalance).
 * Depends only on {@link io.rewind.tools.profile}.
 */
package io.rewind.tools.analysis;
