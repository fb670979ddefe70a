/**
 * Logger nodes: dedicated service ranks that hold the overflow of the ranks' payload logs, so that a
 * rank's log stays under a memory quota while it grows ({@link io.rewind.ft.logger.LoggerNodes}, the
 * job's side; {@link io.rewind.ft.logger.LoggerClient}, a rank's). Every protocol that logs payloads
 * at the sender can dump to them; recovery replays from them; a logger's death is survived by rolling
 * the senders of what it alone held back with the rank that needs it.
 */
package io.rewind.ft.logger;
