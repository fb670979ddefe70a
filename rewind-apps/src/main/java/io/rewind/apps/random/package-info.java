/**
 * Random SPMD programs for the recovery oracle: plain MPI programs drawn from a seed, mixing every
 * communication pattern the API offers; asked to, they also checkpoint every step and send messages
 * that are received steps later, across the checkpoint lines.
 */
package io.rewind.apps.random;
