/**
 * Global rollback, the baseline local rollback is measured against: coordinated checkpoints, no
 * logging, every rank restarts from the newest common recovery line on any failure.
 */
package io.rewind.ft.global;
