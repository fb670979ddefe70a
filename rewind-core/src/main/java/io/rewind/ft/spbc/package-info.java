/**
 * SPBC: coordinated checkpoints inside clusters of ranks, sender-based logging of the messages that
 * cross clusters, no determinants; a failure rolls back the failed rank's cluster only.
 */
package io.rewind.ft.spbc;
