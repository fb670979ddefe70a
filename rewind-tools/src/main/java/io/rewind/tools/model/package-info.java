/**
 * The analytical model of section VI of "Memory-constrained message logging": execution time
 * split into solve, checkpoint, recover and restart, energy from two power levels, the optimal
 * checkpoint period, and the projection of MCML against simple causal message logging (SCML)
 * at scale. The formulas and where they come from are in {@code docs/tools.md}. Depends on
 * nothing else in Rewind.
 */
package io.rewind.tools.model;
