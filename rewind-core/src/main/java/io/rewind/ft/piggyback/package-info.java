/**
 * Determinants piggybacked on the application's messages (causal message logging): the outcome log
 * that records a rank's non-deterministic outcomes, carries them on its frames and gives a restarted
 * rank its own back. Shared by the protocols that log causally, so that none imports another.
 */
package io.rewind.ft.piggyback;
