/**
 * Causal message logging ({@code causal}): sender-based payload logging with determinants piggybacked
 * on the application's messages instead of an event logger.
 */
package io.rewind.ft.causal;
