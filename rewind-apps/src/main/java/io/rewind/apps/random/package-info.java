/**
 * Random SPMD programs for the recovery oracle: plain MPI programs drawn from a seed, mixing every
 * communication pattern the API offers.
 */
package io.rewind.apps.random;
