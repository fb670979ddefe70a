/**
 * Programs that handle failures themselves through {@code io.rewind.api.Ulfm} (run with {@code
 * --on-failure notify}): an iterative solver that shrinks and goes on, one that replaces its lost ranks
 * and rolls back from its own checkpoints, and the adversarial programs the tests kill.
 */
package io.rewind.apps.ulfm;
